/**
 * The family's answers carry every leaf as text (decisions, Fidelity: "Every leaf of a JSON answer
 * is a string"): its clients read each field as a String (Hyperswitch's ACI connector deserialises
 * the answer and the webhook payload so; a number or a JSON boolean fails there). Answers built
 * from numbers (counts of the reporting API) pass through here once, where they are rendered,
 * rather than each field being written as text on its own.
 */

/** A copy of `value` with every number and boolean leaf written as text; strings, null and shapes kept. */
export function asText(value: unknown): unknown {
  if (typeof value === 'number' || typeof value === 'boolean' || typeof value === 'bigint')
    return String(value);
  if (Array.isArray(value)) return value.map(asText);
  if (value !== null && typeof value === 'object') {
    const out: Record<string, unknown> = {};
    for (const name of Object.keys(value)) out[name] = asText((value as Record<string, unknown>)[name]);
    return out;
  }
  return value;
}

/** A yes/no flag as the family writes it (card.regulatedFlag): `Y` or `N`. */
export const flag = (on: boolean): 'Y' | 'N' => (on ? 'Y' : 'N');
