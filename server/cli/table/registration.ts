/**
 * `gateway registration …`: delete a saved card (a registration) as DELETE /v1/registrations/{id}
 * and the dashboard delete it (server/backoffice/registrations/), audited as the CLI's user.
 */
import { deleteRegistration } from '../../backoffice/registrations/registrations';
import { translated } from '../args';
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
};
