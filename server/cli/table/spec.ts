/** A command of the CLI's table: its usage, help, options and the work it prepares. */
import { type OptionSpec, type Parsed, usageError } from '../args';
import type { WebhookCommandContext } from '../webhook-commands';

export interface CommandSpec {
  readonly usage: string;
  readonly summary: string;
  readonly options: Readonly<Record<string, OptionSpec>>;
  readonly help: readonly (readonly [string, string])[];
  /** Names of the positional arguments, all required. */
  readonly positionals: readonly string[];
  /** Checks the arguments (usage errors) and returns the work to do with the store. */
  readonly prepare: (parsed: Parsed) => (ctx: WebhookCommandContext) => Promise<unknown>;
}

export const ID_HELP = '32 lowercase hex characters';

export function parseLimit(value: string | undefined): number {
  if (value === undefined) return 50;
  const n = Number(value);
  if (!/^[0-9]{1,3}$/.test(value) || n < 1 || n > 500) throw usageError('--limit must be 1 to 500');
  return n;
}
