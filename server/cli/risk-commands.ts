/**
 * The operator CLI's risk commands: a channel's risk rules (`ChannelSettings.risk`), checked by
 * `checkRules` (shared/risk/rules.ts) before they are stored, so a payment never meets rules that do
 * not hold. The rules replace the channel's previous ones as a whole; the other settings stay.
 */
import type { Channel } from '../../shared/engine/model';
import type { Store } from '../../shared/engine/ports';
import { checkRules, isRuleErrors, type RiskRules } from '../../shared/risk';
import { isId, quote } from './args';

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
  store: Pick<Store, 'getChannel' | 'updateChannelSettings'>,
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
  store: Pick<Store, 'getChannel'>,
  entityId: string,
): Promise<{ readonly channel?: Channel; readonly rules?: RiskRules }> {
  if (!isId(entityId)) return {};
  const channel = await store.getChannel(entityId);
  if (channel === undefined) return {};
  return channel.settings.risk === undefined ? { channel } : { channel, rules: channel.settings.risk };
}
