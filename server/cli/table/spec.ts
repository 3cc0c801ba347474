/** A command of the CLI's table: its usage, help, options and the work it prepares. */
import type { AdminApiContext } from '../admin-api';
import { checkId, type OptionSpec, type Parsed, requiredFlag } from '../args';
import type { WebhookCommandContext } from '../webhook-commands';

interface CommandBase {
  readonly usage: string;
  readonly summary: string;
  readonly options: Readonly<Record<string, OptionSpec>>;
  readonly help: readonly (readonly [string, string])[];
  /** Names of the positional arguments, all required (but a variadic last one). */
  readonly positionals: readonly string[];
  /** The last positional takes any number of values, none included (`registration move ID…`). */
  readonly variadic?: true;
}

/** A command on the store (SQLite or PostgreSQL, as the server's). */
export interface StoreCommandSpec extends CommandBase {
  /** Checks the arguments (usage errors) and returns the work to do with the store. */
  readonly prepare: (parsed: Parsed) => (ctx: WebhookCommandContext) => Promise<unknown>;
  /**
   * Sets up a new installation (`merchant create`, `user create`): on a SQLite data folder that
   * does not exist it creates the folder and says so; every other command refuses to (run.ts).
   */
  readonly createsDataFolder?: true;
  /**
   * Works on the running gateway's time (`settlement run`): the address to ask for its clock
   * (--url), read from the arguments; the test clock's time when one runs (admin-api.ts).
   */
  readonly gatewayClockUrl?: (parsed: Parsed) => string | undefined;
}

/** A command on the running gateway, through its admin API (--url, GATEWAY_ADMIN_TOKEN): no store opened. */
export interface AdminApiCommandSpec extends CommandBase {
  /** Checks the arguments (usage errors) and returns the work to do over HTTP. */
  readonly overAdminApi: (parsed: Parsed) => (ctx: AdminApiContext) => Promise<unknown>;
}

export type CommandSpec = StoreCommandSpec | AdminApiCommandSpec;

export const ID_HELP = '32 lowercase hex characters';

/** `--merchant ID`, which most commands require: the option, its help line, and its value checked. */
export const MERCHANT = {
  option: { merchant: { type: 'string' } },
  help: ['--merchant ID', `the merchant’s id (${ID_HELP})`],
  of: (parsed: Parsed): string => checkId(requiredFlag(parsed, 'merchant', 'ID'), 'merchant id'),
} as const;

/** The id a command names as its one positional argument (`what`: how usage errors name it). */
export const positionalId = (parsed: Parsed, what: string): string => checkId(parsed.positionals[0]!, what);

/** A command that takes `--merchant ID` alone and hands the merchant's id to its procedure (the lists). */
export function merchantCommand(
  usage: string,
  summary: string,
  run: (ctx: WebhookCommandContext, input: { readonly merchantId: string }) => Promise<unknown>,
): CommandSpec {
  return {
    usage,
    summary,
    options: MERCHANT.option,
    help: [MERCHANT.help],
    positionals: [],
    prepare: (p) => {
      const merchantId = MERCHANT.of(p);
      return (ctx) => run(ctx, { merchantId });
    },
  };
}
