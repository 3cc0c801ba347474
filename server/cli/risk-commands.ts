/**
 * The operator CLI's risk commands: a channel's risk rules (`ChannelSettings.risk`), checked by
 * `checkRules` (shared/risk/rules.ts) before they are stored, so a payment never meets rules that do
 * not hold. The rules replace the channel's previous ones as a whole; the other settings stay.
 */

import { readFileSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import type { Channel } from '../../shared/engine/core/model';
import type { ChannelStore, Store } from '../../shared/engine/core/ports';
import type { RiskRules } from '../../shared/risk';
import { requireChannel } from '../backoffice/channels/channels';
import { BackofficeError } from '../backoffice/errors';
import { parseRiskRules, setRiskRules } from '../backoffice/risk/rules';
import { CliError, failure, isId, quote, translated, usageError } from './args';
import { backoffice, type CommandContext, printJson } from './commands';

export type SetRiskRulesResult =
  | { readonly ok: true; readonly channel: Channel; readonly rules: RiskRules | undefined }
  | { readonly ok: false; readonly errors: readonly string[] };

/**
 * Sets the risk rules of channel `entityId` through the back office's procedure (checked, stored,
 * audited as `channel.risk-rules` by `cli:<os user>`). `json` is the rules as parsed JSON (an
 * object, see README "Risk checks"), or their JSON text (a file's contents), or `null` to remove
 * the rules (the channel then screens nothing). Every problem comes back at once, each naming its
 * field, e.g. `velocity[0].windowSeconds: must be between 1 and 31622400, got 0`; nothing is
 * stored then.
 */
export async function setChannelRiskRules(
  store: Store,
  entityId: string,
  json: unknown,
): Promise<SetRiskRulesResult> {
  if (!isId(entityId)) {
    return {
      ok: false,
      errors: [`channel id: ${quote(entityId)} is not an entity id (32 lowercase hex characters)`],
    };
  }
  let value = json;
  if (typeof json === 'string') {
    try {
      value = JSON.parse(json);
    } catch (error) {
      return { ok: false, errors: [`rules: not valid JSON (${(error as Error).message})`] };
    }
  }
  try {
    const rules = parseRiskRules(value);
    const channel = await requireChannel(store, entityId);
    return {
      ok: true,
      channel: await setRiskRules(backoffice({ store, output: SILENT }), channel, rules),
      rules,
    };
  } catch (error) {
    if (!(error instanceof BackofficeError)) throw error;
    if (error.kind === 'not-found') return { ok: false, errors: [`channel id: unknown channel ${entityId}`] };
    return { ok: false, errors: error.errors.map((e) => `${ruleField(e.name)}: ${e.message}`) };
  }
}

/** Nothing to print: the procedure is called in process. */
const SILENT = { out: () => {}, err: () => {} };

/** A rule's field as checkRules names it (`rules.velocity[0]` → `velocity[0]`). */
const ruleField = (name: string): string => (name === 'rules' ? 'rules' : name.replace(/^rules\./, ''));

/** The risk rules of channel `entityId` as stored (undefined: none); undefined channel when unknown. */
export async function channelRiskRules(
  store: Pick<ChannelStore, 'getChannel'>,
  entityId: string,
): Promise<{ readonly channel?: Channel; readonly rules?: RiskRules }> {
  if (!isId(entityId)) return {};
  const channel = await store.getChannel(entityId);
  if (channel === undefined) return {};
  return channel.settings.risk === undefined ? { channel } : { channel, rules: channel.settings.risk };
}

/**
 * `gateway channel risk ENTITY_ID [--rules FILE | --clear]`: sets (from a JSON file, `-` for
 * stdin), clears or, with neither, prints a channel's risk rules.
 */
export async function riskCommand(
  ctx: CommandContext,
  input: { readonly entityId: string; readonly rules?: string; readonly clear?: boolean },
): Promise<RiskRules | undefined> {
  if (input.rules === undefined && !input.clear) {
    const { channel, rules } = await channelRiskRules(ctx.store, input.entityId);
    if (channel === undefined) throw failure(`unknown channel ${input.entityId}`);
    printJson(ctx, rules ?? null);
    return rules;
  }
  let json: string | null = null;
  if (input.rules !== undefined) {
    try {
      json = input.rules === '-' ? readFileSync(0, 'utf8') : await readFile(input.rules, 'utf8');
    } catch (error) {
      throw failure(`cannot read ${input.rules}: ${(error as Error).message}`);
    }
  }
  const rules = rulesOf(json);
  const channel = await translated(() => requireChannel(ctx.store, input.entityId));
  const updated = await setRiskRules(backoffice(ctx), channel, rules);
  if (ctx.json) printJson(ctx, updated.settings.risk ?? null);
  else ctx.output.out(rules === undefined ? `${input.entityId}: no risk rules` : input.entityId);
  return rules;
}

/**
 * The file's rules checked by the back office (null: none). Faulty rules are invalid input like
 * any other: a usage error (exit code 2) naming `--rules` and each faulty field in it.
 */
function rulesOf(text: string | null): RiskRules | undefined {
  let value: unknown = null;
  try {
    value = text === null ? null : JSON.parse(text);
  } catch (error) {
    throw usageError(`--rules is not valid JSON (${(error as Error).message})`);
  }
  try {
    return parseRiskRules(value);
  } catch (error) {
    if (!(error instanceof BackofficeError) || error.kind !== 'invalid') throw error;
    const said = error.errors.map((e) => `--rules ${ruleField(e.name)}: ${e.message}`);
    throw new CliError(said.join('; '), 2, error.errors);
  }
}
