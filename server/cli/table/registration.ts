/**
 * `gateway registration …`: delete a saved card (a registration) as DELETE /v1/registrations/{id}
 * and the dashboard delete it (server/backoffice/registrations/), audited as the CLI's user; move
 * saved cards to another route of their channel as the admin API's POST …/registrations/moves.
 */
import { moveRegistrations } from '../../backoffice/registrations/move';
import { deleteRegistration } from '../../backoffice/registrations/registrations';
import { booleanFlag, checkId, requiredFlag, translated, usageError } from '../args';
import { backoffice, printJson } from '../commands';
import { type CommandSpec, ID_HELP, MERCHANT, positionalId } from './spec';

export const REGISTRATION_COMMANDS: Readonly<Record<string, CommandSpec>> = {
  delete: {
    usage: 'gateway registration delete REGISTRATION_ID --merchant ID',
    summary:
      'Delete a saved card: nothing can pay with it any more, and the merchant is sent REGISTRATION DELETED.',
    options: { ...MERCHANT.option },
    help: [['REGISTRATION_ID', `the registration’s id (${ID_HELP})`], MERCHANT.help],
    positionals: ['REGISTRATION_ID'],
    prepare: (p) => {
      const id = positionalId(p, 'registration id');
      const merchantId = MERCHANT.of(p);
      return async (ctx) => {
        const deleted = await translated(() =>
          deleteRegistration({ ...backoffice(ctx), store: ctx.store }, merchantId, undefined, id),
        );
        if (ctx.json === true) printJson(ctx, deleted);
        else ctx.output.out(`deleted registration ${deleted.id}`);
      };
    },
  },
  move: {
    usage: 'gateway registration move [REGISTRATION_ID…|--all] --merchant ID --route N',
    summary:
      'Move saved cards to another route of their channel: their merchant-initiated repeats go there as a card on file with the network transaction id of their first payment.',
    options: { ...MERCHANT.option, all: { type: 'boolean' }, route: { type: 'string' } },
    help: [
      ['REGISTRATION_ID…', `the registrations (${ID_HELP}); all or none move`],
      ['--all', 'every registration of the merchant that can move (the others listed with why)'],
      MERCHANT.help,
      ['--route N', 'the route, by its place in the channel’s routes (0 first)'],
    ],
    positionals: ['REGISTRATION_ID…'],
    variadic: true,
    prepare: (p) => {
      const ids = p.positionals.map((id) => checkId(id, 'registration id'));
      const all = booleanFlag(p, 'all');
      if (all === ids.length > 0) throw usageError('give REGISTRATION_ID… or --all');
      const routeText = requiredFlag(p, 'route', 'N');
      if (!/^[0-9]{1,3}$/.test(routeText))
        throw usageError('--route N must be the place of a route (0 first)');
      const merchantId = MERCHANT.of(p);
      const input = { ...(all ? { all: true } : { registrationIds: ids }), route: Number(routeText) };
      return async (ctx) => {
        const moves = await translated(
          () => moveRegistrations({ ...backoffice(ctx), store: ctx.store }, merchantId, undefined, input),
          { registrationIds: 'REGISTRATION_ID…', all: '--all', route: '--route' },
        );
        if (ctx.json === true) return printJson(ctx, moves);
        for (const m of moves.moved)
          ctx.output.out(`moved registration ${m.id} to route ${m.route} (${m.kind})`);
        for (const r of moves.refused) ctx.output.out(`left registration ${r.id}: ${r.reason}`);
      };
    },
  },
};
