/**
 * What happened to an uncertain payment, asked of the upstream (issue 32 point 5): the family's
 * Query API, `GET /v1/query?entityId=…&merchantTransactionId=…`, by the gateway's own payment id.
 *
 * Why merchantTransactionId carries the gateway's id, not the merchant's: it is the one field of
 * the family a payment can be searched by before the upstream's own id is known (the answer that
 * would have told it was lost), and the merchant's own need not be unique (the family does not
 * require it), so it could not name one payment. The upstream account is the gateway's; its
 * "merchant transaction" is the gateway's payment. The merchant's own merchantTransactionId stays
 * the gateway's (answered and searched here as ever) and goes upstream as
 * customParameters[merchantTransactionId], for whoever reads the upstream's records.
 */

import type { Payment, Registration } from '../../../shared/engine/core/model';
import type { Connector, ConnectorTarget } from '../../../shared/engine/core/ports';
import { ResultCodes } from '../../../shared/result-codes';
import type { ConnectorAnswer } from '../kit/contract';
import { oppAnswer } from './response';

/** The Query API's path of a search by merchantTransactionId. */
export const queryPath = (entityId: string, merchantTransactionId: string): string =>
  `/v1/query?entityId=${encodeURIComponent(entityId)}&merchantTransactionId=${encodeURIComponent(merchantTransactionId)}`;

/**
 * The request as forwarded: the gateway's payment id as merchantTransactionId (see above); the
 * same for a capture, refund, reversal or rebill (its own new payment's id, not the original's),
 * and for a registration (the gateway's id of the registration).
 */
export function withOurReference(order: { readonly request: object; readonly paymentId?: string }): object {
  const request = order.request as {
    readonly merchantTransactionId?: string;
    readonly customParameters?: object;
  };
  if (order.paymentId === undefined) return order.request;
  const own = request.merchantTransactionId;
  return {
    ...order.request,
    merchantTransactionId: order.paymentId,
    ...(own === undefined
      ? {}
      : { customParameters: { ...request.customParameters, merchantTransactionId: own } }),
  };
}

type Json = Readonly<Record<string, unknown>>;
const isObject = (value: unknown): value is Json =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/**
 * The upstream's answer of the search, as the kit's inquiry reads it: the payment found (its own
 * answer), 700.400.580 when none was, `uncertain` when the answer says neither.
 */
export function inquiryAnswer(json: unknown, payment: Pick<Payment, 'paymentType'>): ConnectorAnswer {
  if (!isObject(json)) return { code: ResultCodes.TIMEOUT_UNCERTAIN, technical: 'uncertain' };
  const found = Array.isArray(json.payments) ? json.payments.filter(isObject) : undefined;
  if (found === undefined) {
    // An OPP system answers a search without a match with the "not found" family of codes.
    const code = isObject(json.result) ? json.result.code : undefined;
    return code === ResultCodes.TRANSACTION_NOT_FOUND || code === '700.400.100'
      ? { code: ResultCodes.TRANSACTION_NOT_FOUND }
      : { code: ResultCodes.TIMEOUT_UNCERTAIN, technical: 'uncertain' };
  }
  // Ours is the one of its type: each payment, a capture or refund too, carries its own reference.
  const ours = found.find((p) => p.paymentType === payment.paymentType) ?? found[0];
  return ours === undefined ? { code: ResultCodes.TRANSACTION_NOT_FOUND } : oppAnswer(ours);
}

/** The inquiry of `payment` through `client`: the upstream asked by the gateway's own id. */
export const inquire = (
  client: Connector,
  target: ConnectorTarget,
  payment: Payment,
): Promise<ConnectorAnswer> => search(client, target, payment.id, payment);

/**
 * The inquiry of an uncertain registration: the same search by the gateway's own id, which the
 * registration carried upstream as its merchantTransactionId (connector.ts `register`); the
 * upstream's registration is the transaction of type RG it finds (its id: the registration's
 * there, which the kit keeps as ConnectorRegistrationID).
 */
export const inquireRegistration = (
  client: Connector,
  target: ConnectorTarget,
  registration: Registration,
): Promise<ConnectorAnswer> => search(client, target, registration.id, { paymentType: 'RG' });

/** The upstream's Query API searched by `ourId`, its answer read for a transaction of `kind`. */
async function search(
  client: Connector,
  target: ConnectorTarget,
  ourId: string,
  kind: Pick<Payment, 'paymentType'>,
): Promise<ConnectorAnswer> {
  if (client.get === undefined) return { code: ResultCodes.UNDEFINED_CONNECTOR_ERROR, technical: 'refused' };
  const read = await client.get(target, queryPath(target.entityId, ourId));
  return 'json' in read
    ? inquiryAnswer(read.json, kind)
    : { code: ResultCodes.TIMEOUT_UNCERTAIN, technical: read.technical };
}
