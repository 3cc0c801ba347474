/**
 * What a plain-JSON webhook may carry. An encrypted notification is the merchant's API answer
 * sealed for the merchant's key; a plain one travels as readable JSON to whatever the URL's path
 * runs through (proxies, logs), so account numbers are masked in it as everywhere else outside the
 * API answer: the catalogue's account fields (mask `account`: bankAccount.iban, .number,
 * sender/recipient.accountNumber) by `maskAccount`, and a valid IBAN anywhere in free text by
 * `maskIbans`. Card numbers are never in a notification in clear (the engine masks them).
 */
import { maskAccount, maskIbans } from '../../shared/params/errors';
import { maskOf } from '../../shared/params/masks';

type Json = unknown;

function masked(value: Json, name: string): Json {
  if (typeof value === 'string') return maskOf(name) === 'account' ? maskAccount(value) : maskIbans(value);
  if (Array.isArray(value)) return value.map((item, i) => masked(item, `${name}[${i}]`));
  if (value === null || typeof value !== 'object') return value;
  const out: Record<string, Json> = {};
  for (const key of Object.keys(value)) {
    out[key] = masked((value as Record<string, Json>)[key], name === '' ? key : `${name}.${key}`);
  }
  return out;
}

/** The payload with its account numbers masked; the wire names are the payload's own paths. */
export const plainPayload = (payload: Record<string, Json>): Record<string, Json> =>
  masked(payload, '') as Record<string, Json>;
