/**
 * The operator CLI's risk commands: a channel's risk rules (`ChannelSettings.risk`), checked by
 * `checkRules` (shared/risk/rules.ts) before they are stored, so a payment never meets rules that do
 * not hold. The rules replace the channel's previous ones as a whole; the other settings stay.
 */

import { readFileSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import type { Channel } from '../../shared/engine/core/model';
import type { ChannelStore } from '../../shared/engine/core/ports';
import { checkRules, isRuleErrors, type RiskRules } from '../../shared/risk';
import { requireChannel } from '../backoffice/channels/channels';
import { parseRiskRules, setRiskRules } from '../backoffice/risk/rules';
import { CliError, failure, isId, quote, translated } from './args';
import { backoffice, type CommandContext, printJson } from './commands';

export type SetRiskRulesResult =
  | { readonly ok: true; readonly channel: Channel; readonly rules: RiskRules | undefined }
  | { readonly ok: false; readonly errors: readonly string[] };

/**
 * Sets the risk rules of channel `entityId`. `json` is the rules as parsed JSON (an object, see
 * README "Risk checks"), or their JSON text (a file's contents), or `null` to remove the rules (the
 * channel then screens nothing). Every problem comes back at once, each naming its field, e.g.
 * `velocity[0].windowSeconds: must be between 1 and 31622400, got 0`; nothing is stored then.
 */
export async function setChannelRiskRules(
  store: Pick<ChannelStore, 'getChannel' | 'updateChannelSettings'>,
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
  let rules: RiskRules | undefined;
  if (value !== null) {
    const checked = checkRules(value);
    if (isRuleErrors(checked)) return { ok: false, errors: checked.errors };
    rules = checked;
  }
  const channel = await store.getChannel(entityId);
  if (channel === undefined) return { ok: false, errors: [`channel id: unknown channel ${entityId}`] };
  const { risk: _previous, ...rest } = channel.settings;
  const settings = rules === undefined ? rest : { ...rest, risk: rules };
  await store.updateChannelSettings(channel.id, settings);
  return { ok: true, channel: { ...channel, settings }, rules };
}

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
 * The file's rules checked by the back office (null: none). Faulty rules are a failure (exit
 * code 1), not a usage error: the command was called right, the file's contents do not hold.
 */
function rulesOf(text: string | null): RiskRules | undefined {
  let value: unknown = null;
  try {
    value = text === null ? null : JSON.parse(text);
  } catch (error) {
    throw failure(`rules: not valid JSON (${(error as Error).message})`);
  }
  try {
    return translated(() => parseRiskRules(value));
  } catch (error) {
    if (error instanceof CliError) throw new CliError(error.message, 1, error.parameterErrors);
    throw error;
  }
}
