/**
 * A channel's risk rules (`ChannelSettings.risk`), checked by shared/risk `checkRules` before they
 * are stored, so a payment never meets rules that do not hold. The rules replace the channel's
 * previous ones as a whole (null removes them: the channel then screens nothing); the other
 * settings stay. Every fault comes back at once, each naming its field (`rules.velocity[0]…`).
 */
import type { Channel, ChannelSettings } from '../../../shared/engine/core/model';
import { checkRules, isRuleErrors, type RiskRules } from '../../../shared/risk';
import type { BackofficeContext } from '../context';
import { type FieldError, invalid } from '../errors';

/** checkRules' faults (`field: message`) as fields of `rules`. */
function ruleErrors(errors: readonly string[]): FieldError[] {
  return errors.map((e) => {
    const at = e.indexOf(': ');
    const field = at === -1 ? '' : e.slice(0, at);
    return {
      name: field === 'rules' || field === '' ? 'rules' : `rules.${field}`,
      value: null,
      message: at === -1 ? e : e.slice(at + 2),
    };
  });
}

/** The rules checked (null: none), or `invalid` naming each faulty field. */
export function parseRiskRules(rules: unknown): RiskRules | undefined {
  if (rules === null) return undefined;
  const checked = checkRules(rules);
  if (isRuleErrors(checked)) throw invalid(ruleErrors(checked.errors));
  return checked;
}

/** Replaces the channel's rules (undefined: removes them); the channel as it is now. */
export async function setRiskRules(
  ctx: BackofficeContext,
  channel: Channel,
  rules: RiskRules | undefined,
): Promise<Channel> {
  const { risk: _previous, ...rest } = channel.settings;
  const settings: ChannelSettings = rules === undefined ? rest : { ...rest, risk: rules };
  await ctx.store.updateChannelSettings(channel.id, settings);
  await ctx.audit('channel.risk-rules', channel.id, channel.merchantId);
  return { ...channel, settings };
}
