/**
 * `gateway clock …`: the running gateway's test clock (GATEWAY_TEST_CLOCK=on), through its admin
 * API: show it, move it forward by a duration or to a time. A move answers once everything that
 * fell due has run, in time order (server/clock/).
 */
import { parseClockMove } from '../../backoffice/clock/moves';
import type { ClockMove } from '../../clock/test-clock';
import { type AdminApiContext, adminRequest, adminUrl } from '../admin-api';
import { stringFlag, translated } from '../args';
import { table } from '../commands';
import type { AdminApiCommandSpec } from './spec';

const URL_HELP = [
  '--url URL',
  'the gateway’s address (default http://127.0.0.1:$PORT, PORT 8080); GATEWAY_ADMIN_TOKEN is its token',
] as const;

/** Prints the clock's time, and for a move what it ran. */
function print(ctx: AdminApiContext, answer: Record<string, unknown>): void {
  // the admin API's envelope is the face's, not the clock's
  const { result: _result, buildNumber: _b, timestamp: _t, ndc: _n, ...shown } = answer;
  if (ctx.json) {
    ctx.output.out(JSON.stringify(shown, null, 2));
    return;
  }
  ctx.output.out(`now  ${String(answer.now)}${answer.frozen === true ? '  (frozen)' : ''}`);
  const ran = answer.ran as Record<string, number> | undefined;
  if (ran !== undefined)
    for (const line of table(
      ['ran', 'count'],
      Object.entries(ran).map(([kind, n]) => [kind, String(n)]),
    ))
      ctx.output.out(line);
}

/**
 * The move checked here by the back office's rule (usage errors name the argument) before the
 * request; the running gateway moves its clock through the same procedure (routes/admin/clock.ts).
 */
const checkMove = (body: ClockMove): void => {
  translated(() => parseClockMove(body), { advance: 'DURATION', to: 'TIME' });
};

function move(p: Parameters<AdminApiCommandSpec['overAdminApi']>[0], body: ClockMove) {
  const url = stringFlag(p, 'url');
  return async (ctx: AdminApiContext) => {
    const base = adminUrl(url, ctx.env);
    print(ctx, await adminRequest(ctx, base, 'POST', '/admin/v1/clock', body));
  };
}

export const CLOCK_COMMANDS: Readonly<Record<string, AdminApiCommandSpec>> = {
  show: {
    usage: 'gateway clock show [--url URL]',
    summary: 'The running gateway’s test clock: its time.',
    options: { url: { type: 'string' } },
    help: [URL_HELP],
    positionals: [],
    overAdminApi: (p) => {
      const url = stringFlag(p, 'url');
      return async (ctx) =>
        print(ctx, await adminRequest(ctx, adminUrl(url, ctx.env), 'GET', '/admin/v1/clock'));
    },
  },
  advance: {
    usage: 'gateway clock advance DURATION [--url URL]',
    summary: 'Move the test clock forward (31m, 2h, 30d, or milliseconds), running what falls due, in order.',
    options: { url: { type: 'string' } },
    help: [['DURATION', 'how far: a number of milliseconds, or with a unit: 90s, 31m, 2h, 30d'], URL_HELP],
    positionals: ['DURATION'],
    overAdminApi: (p) => {
      const text = p.positionals[0]!;
      checkMove({ advance: text });
      return move(p, { advance: text });
    },
  },
  set: {
    usage: 'gateway clock set TIME [--url URL]',
    summary: 'Move the test clock forward to a time (ISO 8601), running what falls due, in order.',
    options: { url: { type: 'string' } },
    help: [['TIME', 'an ISO time with its zone, such as 2026-12-01T09:00:00Z'], URL_HELP],
    positionals: ['TIME'],
    overAdminApi: (p) => {
      const text = p.positionals[0]!;
      checkMove({ to: text });
      return move(p, { to: text });
    },
  },
};
