/**
 * The opp kind's request transformer: an engine order → the path and form body of a request to
 * another gateway of the family. The merchant's request goes on as sent, without what is ours
 * (our credentials, our mode, our registrations' ids), with the channel's connector entityId and
 * the upstream's own ids where a payment or registration is referenced.
 */

import { WALLET_GROUPS } from '../../../shared/engine/steps/wallets';
import type { FormTree } from '../../../shared/form/decode';
import { encodeForm } from '../../../shared/form/encode';
import { isDictPath } from '../../../shared/params/paths';

/** What the family's API takes where: POST to one of these paths. */
export const OPP_PATHS = {
  payments: '/v1/payments',
  payment: (theirId: string) => `/v1/payments/${encodeURIComponent(theirId)}`,
  registrations: '/v1/registrations',
  registrationPayments: (theirId: string) => `/v1/registrations/${encodeURIComponent(theirId)}/payments`,
  threeDSecure: '/v1/threeDSecure',
  authentication: (theirId: string) => `/v1/threeDSecure/${encodeURIComponent(theirId)}`,
} as const;

/**
 * Our own credentials and mode are not the connector's business, nor our registrations' ids.
 * createRegistration is: the connector registers the card too, and answers its registrationId.
 */
const NOT_FORWARDED = new Set(['entityId', 'authentication', 'testMode', 'registrations']);

/**
 * A wallet's encrypted token was opened here (engine/steps/wallets.ts: the card, its cryptogram as
 * threeDSecure.verificationId, its ECI): the upstream gets the family's decrypted-card variant,
 * `walletX.source` in the token's place, since the token was issued for this gateway and no other
 * could open it. The sheet that issues tokens is a web page: `web`, unless the merchant said.
 */
function decryptedVariant(group: FormTree[string]): FormTree[string] {
  if (typeof group !== 'object' || group === null || Array.isArray(group) || !('paymentToken' in group))
    return group;
  const { paymentToken: _opened, ...rest } = group as FormTree;
  return { source: 'web', ...rest };
}

const WALLETS: ReadonlySet<string> = new Set(WALLET_GROUPS);

/** The form body of `request` for the upstream account `entityId`, with `extra` fields (referenceUuid). */
export function forwardBody(request: object, entityId: string, extra: Record<string, string> = {}): string {
  const tree: FormTree = {};
  for (const [key, value] of Object.entries(request as FormTree))
    if (!NOT_FORWARDED.has(key)) tree[key] = WALLETS.has(key) ? decryptedVariant(value) : value;
  for (const [key, value] of Object.entries(extra)) tree[key] = value;
  return `entityId=${encodeURIComponent(entityId)}&${encodeForm(tree, isDictPath)}`;
}

/**
 * A merchant-initiated repeat of a card registered at another connector (routing/migrate.ts), as
 * the family takes a stored credential it did not store itself: the card (no CVV) with
 * `standingInstruction` source MIT, mode REPEATED, the repeat's type and the scheme's network
 * transaction id of the cardholder's first payment as its `initialTransactionId`. What the
 * gateway's own agreement says (its agreementId, its own initialTransactionId) is not the
 * upstream's and is left out.
 */
export function cardOnFileRequest(
  request: object,
  card: { brand: string; number: string; expiryMonth: string; expiryYear: string; holder?: string },
  onFile: { networkTransactionId: string; type: string },
): FormTree {
  const { standingInstruction: _ours, card: _none, ...rest } = request as FormTree;
  return {
    ...rest,
    paymentBrand: card.brand,
    card: {
      number: card.number,
      expiryMonth: card.expiryMonth,
      expiryYear: card.expiryYear,
      ...(card.holder === undefined ? {} : { holder: card.holder }),
    },
    standingInstruction: {
      source: 'MIT',
      mode: 'REPEATED',
      type: onFile.type,
      initialTransactionId: onFile.networkTransactionId,
    },
  };
}

/**
 * A payment with a registration the upstream stored: a merchant-initiated repeat quotes the
 * upstream's agreement, not the gateway's own ids (its agreementId and initialTransactionId are
 * this gateway's): the upstream's scheme reference of the first payment when the routing kept it
 * (`networkTransactionId`), else none (the upstream uses its registration's own).
 */
export function upstreamRepeat(request: object, networkTransactionId: string | undefined): object {
  const instruction = (request as { standingInstruction?: Record<string, unknown> }).standingInstruction;
  if (instruction?.source !== 'MIT') return request;
  const { agreementId: _ours, initialTransactionId: _alsoOurs, ...rest } = instruction;
  return {
    ...request,
    standingInstruction: {
      ...rest,
      ...(networkTransactionId === undefined ? {} : { initialTransactionId: networkTransactionId }),
    },
  };
}
