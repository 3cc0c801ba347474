/** A command of the CLI's table: its usage, help, options and the work it prepares. */

import type { AdminApiContext } from '../admin-api';
import { type OptionSpec, type Parsed, usageError } from '../args';
import type { WebhookCommandContext } from '../webhook-commands';

interface CommandBase {
  readonly usage: string;
  readonly summary: string;
  readonly options: Readonly<Record<string, OptionSpec>>;
  readonly help: readonly (readonly [string, string])[];
  /** Names of the positional arguments, all required. */
  readonly positionals: readonly string[];
}

/** A command on the store (SQLite or PostgreSQL, as the server's). */
export interface StoreCommandSpec extends CommandBase {
  /** Checks the arguments (usage errors) and returns the work to do with the store. */
  readonly prepare: (parsed: Parsed) => (ctx: WebhookCommandContext) => Promise<unknown>;
}

/** A command on the running gateway, through its admin API (--url, GATEWAY_ADMIN_TOKEN): no store opened. */
export interface AdminApiCommandSpec extends CommandBase {
  /** Checks the arguments (usage errors) and returns the work to do over HTTP. */
  readonly overAdminApi: (parsed: Parsed) => (ctx: AdminApiContext) => Promise<unknown>;
}

export type CommandSpec = StoreCommandSpec | AdminApiCommandSpec;

export const ID_HELP = '32 lowercase hex characters';

export function parseLimit(value: string | undefined): number {
  if (value === undefined) return 50;
  const n = Number(value);
  if (!/^[0-9]{1,3}$/.test(value) || n < 1 || n > 500) throw usageError('--limit must be 1 to 500');
  return n;
}
