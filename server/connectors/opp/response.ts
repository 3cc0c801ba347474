/**
 * The opp kind's response transformer: another gateway's JSON answer → the kit's ConnectorAnswer.
 * Its result code is already the family's; everything else it says comes back (issue 32 point 4):
 * avsResponse and cvvResponse, the issuer's card details, risk.score and its other resultDetails.
 * What is ours is not taken from it: the card's bin, last four digits, holder and expiry (the
 * gateway answers its own), and the resultDetails names the kit sets itself. A pending answer's
 * `redirect` (its 3-D Secure challenge, its provider's page) and its `threeDSecure` results are
 * read for the kit (kit/processor.ts), an unreadable redirect left out (then nobody can finish it).
 */
import { ResultCodes } from '../../../shared/result-codes';
import type { ConnectorAnswer } from '../kit/contract';

/** The card fields the gateway answers from its own record, never from the upstream's. */
const OWN_CARD_FIELDS = new Set([
  'bin',
  'last4Digits',
  'holder',
  'expiryMonth',
  'expiryYear',
  'number',
  'cvv',
]);

/** The resultDetails names the kit writes itself (kit/processor.ts). */
const OWN_RESULT_DETAILS = new Set([
  'ConnectorTxID1',
  'ConnectorRegistrationID',
  'AcquirerResponse',
  'clearingInstituteName',
]);

type Json = Readonly<Record<string, unknown>>;

const isObject = (value: unknown): value is Json =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/** The text fields of a JSON object, but those named in `except`. */
function textFields(value: unknown, except: ReadonlySet<string>): Record<string, string> | undefined {
  if (!isObject(value)) return undefined;
  const out: Record<string, string> = {};
  let any = false;
  for (const [name, field] of Object.entries(value))
    if (typeof field === 'string' && !except.has(name)) {
      out[name] = field;
      any = true;
    }
  return any ? out : undefined;
}

/** The issuer's details of the upstream's `card`: text fields and the issuer.* group. */
function cardDetails(card: unknown): Record<string, unknown> | undefined {
  if (!isObject(card)) return undefined;
  const out: Record<string, unknown> = {};
  let any = false;
  for (const [name, field] of Object.entries(card)) {
    if (OWN_CARD_FIELDS.has(name)) continue;
    const kept = typeof field === 'string' ? field : textFields(field, OWN_CARD_FIELDS);
    if (kept === undefined) continue;
    out[name] = kept;
    any = true;
  }
  return any ? out : undefined;
}

/** The upstream's redirect: an http(s) URL and name/value text parameters, else nothing. */
function redirectOf(value: unknown): ConnectorAnswer['redirect'] {
  if (!isObject(value) || typeof value.url !== 'string' || !/^https?:\/\//i.test(value.url)) return undefined;
  const parameters: { name: string; value: string }[] = [];
  for (const p of Array.isArray(value.parameters) ? value.parameters : [])
    if (isObject(p) && typeof p.name === 'string' && typeof p.value === 'string')
      parameters.push({ name: p.name, value: p.value });
  return {
    url: value.url,
    ...(typeof value.method === 'string' ? { method: value.method } : {}),
    parameters,
  };
}

/**
 * The scheme reference of a cardholder-initiated INITIAL payment, which the family answers as
 * `standingInstruction.initialTransactionId`: kept as resultDetails.CardholderInitiatedTransactionID
 * (the family's name for it), for a registration made along to move to another connector later
 * (server/connectors/routing/network-id.ts). The upstream's own resultDetails name wins.
 */
function withSchemeReference(
  details: Record<string, string> | undefined,
  body: Json,
): Record<string, string> | undefined {
  const instruction = isObject(body.standingInstruction) ? body.standingInstruction : {};
  const initial = instruction.initialTransactionId;
  if (
    typeof initial !== 'string' ||
    instruction.mode !== 'INITIAL' ||
    details?.CardholderInitiatedTransactionID
  )
    return details;
  return { ...details, CardholderInitiatedTransactionID: initial };
}

const RESULT_OWN = new Set(['code', 'description']);
const NOTHING = new Set<string>();

/** An answer of the family's API, read: anything unreadable in it is left out, never trusted. */
export function oppAnswer(json: unknown): ConnectorAnswer {
  const body = isObject(json) ? json : {};
  const result = isObject(body.result) ? body.result : {};
  const processorCode = typeof result.code === 'string' ? result.code : undefined;
  const extra = {
    result: textFields(result, RESULT_OWN),
    card: cardDetails(body.card),
    risk: textFields(body.risk, NOTHING),
    resultDetails: withSchemeReference(textFields(body.resultDetails, OWN_RESULT_DETAILS), body),
    redirect: redirectOf(body.redirect),
    threeDSecure: textFields(body.threeDSecure, NOTHING),
  };
  const answer: Record<string, unknown> = {
    code: processorCode ?? ResultCodes.UNDEFINED_CONNECTOR_ERROR,
  };
  if (processorCode !== undefined) answer.processorCode = processorCode;
  if (typeof result.description === 'string') answer.description = result.description;
  if (typeof body.id === 'string') answer.id = body.id;
  if (typeof body.registrationId === 'string') answer.registrationId = body.registrationId;
  for (const [name, value] of Object.entries(extra)) if (value !== undefined) answer[name] = value;
  return answer as unknown as ConnectorAnswer;
}
