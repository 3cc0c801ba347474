/**
 * What a payment response echoes of its request: every group the merchant sent ("a response can
 * contain any structure listed above"), without what must never come back. The catalogue says
 * which parameters are secret (card numbers, security codes, tokens, passwords); credentials
 * and the fields the response carries in their own right are left out too. Account numbers
 * (IBANs, bank account numbers: mask `account`) are echoed to the merchant who sent them, as the
 * family does; storage seals them at rest (shared/sealing/account-data.ts).
 */
import type { FormTree, FormValue } from '../../form/decode';
import { maskOf } from '../../params/masks';

/** Answered as top-level fields of their own, or never echoed (credentials). */
const NOT_ECHOED = new Set([
  'amount',
  'currency',
  'paymentType',
  'paymentBrand',
  'descriptor',
  'merchantTransactionId',
  'entityId',
  'authentication',
  'testMode',
  'createRegistration',
  'registrations',
  'referenceUuid',
]);

function strip(value: FormValue, name: string): FormValue | undefined {
  if (typeof value === 'string') {
    const mask = maskOf(name);
    return mask === undefined || mask === 'account' ? value : undefined;
  }
  if (Array.isArray(value)) return value.map((item, i) => strip(item, `${name}[${i}]`) as FormTree);
  const out: FormTree = {};
  // Object.keys, not entries: no [key, value] array per field of every payment echoed
  let kept = false;
  for (const key of Object.keys(value)) {
    const child = strip(value[key]!, `${name}.${key}`);
    if (child === undefined) continue;
    out[key] = child;
    kept = true;
  }
  return kept ? out : undefined;
}

export function echoOf(request: object): FormTree {
  const out: FormTree = {};
  const sent = request as FormTree;
  for (const key of Object.keys(sent)) {
    if (NOT_ECHOED.has(key)) continue;
    const kept = strip(sent[key]!, key);
    if (kept !== undefined) out[key] = kept;
  }
  return out;
}

/**
 * `integrity=true` asks for the SRI hash of the widget script (`sha384-…`, the one a checkout
 * creation answers), so that is what the answer echoes, not "true"; without a known hash (no
 * widget build) the field is left out rather than invented. Any other value is echoed as sent.
 */
export function withIntegrity<R extends { readonly integrity?: string }>(
  request: R,
  integrity: (() => string | undefined) | undefined,
): R {
  if (request.integrity !== 'true') return request;
  const { integrity: _asked, ...rest } = request;
  const hash = integrity?.();
  return (hash === undefined ? rest : { ...rest, integrity: hash }) as R;
}
