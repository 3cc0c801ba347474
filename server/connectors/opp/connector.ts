/**
 * The opp kind: a connector to an account on another gateway of this API family (a real OPP test
 * or live system, or another instance of this gateway), the kit's contract over the opp request
 * transformer (request.ts), the client (client.ts) and its response transformer (response.ts).
 *
 * Payments (PA, DB, CD; referenceUuid as the upstream's id of the original) go to POST
 * /v1/payments; captures, refunds, reversals and rebills to POST /v1/payments/{its id};
 * registrations to POST /v1/registrations and payments with them to POST
 * /v1/registrations/{its id}/payments; stand-alone authentications to POST /v1/threeDSecure.
 *
 * The shopper's part is the upstream's: the request goes with the shopper's browser data and the
 * 3-D Secure fields as sent, and with the gateway's own return address as its `shopperResultUrl`
 * (order.returnUrl), so that the upstream's challenge or provider page sends the shopper back to
 * the gateway, never straight to the merchant. Once they are back, `finish` reads the upstream's
 * payment by its id (GET /v1/payments/{id}?entityId=…, GET /v1/threeDSecure/{id} for a stand-alone
 * authentication), the family's way after the shopper returns.
 */
import { brandFlow } from '../../../shared/brands';
import type { Connector, ConnectorTarget } from '../../../shared/engine/core/ports';
import { connectorIdOf } from '../../../shared/engine/core/processor';
import { AUTHENTICATION_PAYMENT_TYPE } from '../../../shared/engine/steps/three-d-secure';
import { ResultCodes } from '../../../shared/result-codes';
import {
  type Answer,
  type ConnectorContract,
  type InitialOrder,
  notSupported,
  type Operation,
} from '../kit/contract';
import { inquire, inquireRegistration, withOurReference } from './inquire';
import { cardOnFileRequest, forwardBody, OPP_PATHS, upstreamRepeat } from './request';
import { oppAnswer } from './response';
import { settleDay } from './settle';

/** The gateway's own return address as the upstream's shopperResultUrl (over the merchant's). */
const returnTo = (order: InitialOrder): Record<string, string> =>
  order.returnUrl === undefined ? {} : { shopperResultUrl: order.returnUrl };

/** The opp connector of one channel's credentials, over `client`. */
export function oppConnector(client: Connector, target: ConnectorTarget): ConnectorContract {
  const forward: (path: string, request: object, extra?: Record<string, string>) => Answer = (
    path,
    request,
    extra = {},
  ) => client.send(target, path, forwardBody(request, target.entityId, extra));

  const pay = (operation: Operation) => async (order: InitialOrder) => {
    // A brand paid on a provider's page needs the shopper sent back to the gateway: without a
    // return address of the gateway's, refused before anything is created on the other side.
    const brand = (order.request as { readonly paymentBrand?: string }).paymentBrand;
    if (
      order.returnUrl === undefined &&
      order.original === undefined &&
      brand !== undefined &&
      brandFlow(brand) === 'redirect'
    )
      return notSupported(operation);
    const linked = order.theirOriginalId;
    const onFile = order.cardOnFile;
    const card = order.decide.instrument;
    // a repeat of a card registered elsewhere: the card with the standing instruction (request.ts)
    if (onFile !== undefined)
      return card.kind === 'card'
        ? forward(
            OPP_PATHS.payments,
            withOurReference({ ...order, request: cardOnFileRequest(order.request, card, onFile) }),
          )
        : notSupported(operation);
    // the gateway's own id as merchantTransactionId, to inquire by it (inquire.ts)
    return forward(OPP_PATHS.payments, withOurReference(order), {
      ...(linked === undefined ? {} : { referenceUuid: linked }),
      ...returnTo(order),
    });
  };
  // captures, refunds, reversals, rebills, payments with a registration: each with its own
  // reference too, to be asked about by it when the answer is lost
  const reference = (order: {
    readonly theirId: string;
    readonly request: object;
    readonly paymentId?: string;
  }) => forward(OPP_PATHS.payment(order.theirId), withOurReference(order));

  return {
    authorize: pay('authorize'),
    debit: pay('debit'),
    credit: pay('credit'),
    capture: reference,
    reverse: reference,
    refund: reference,
    rebill: reference,
    // the gateway's own registration id as merchantTransactionId, to inquire by it (inquire.ts)
    register: (order) => forward(OPP_PATHS.registrations, withOurReference(order)),
    payWithRegistration: (order) =>
      forward(
        OPP_PATHS.registrationPayments(order.theirRegistrationId),
        withOurReference({ ...order, request: upstreamRepeat(order.request, order.networkTransactionId) }),
      ),
    authenticate: (order) => forward(OPP_PATHS.threeDSecure, order.request, returnTo(order)),
    finish: async ({ payment }) => {
      // a payment the upstream never answered with its id cannot be read there
      const theirs = payment.details === undefined ? undefined : connectorIdOf(payment);
      if (client.get === undefined || theirs === undefined) return notSupported('finish');
      const path =
        payment.paymentType === AUTHENTICATION_PAYMENT_TYPE
          ? OPP_PATHS.authentication(theirs)
          : OPP_PATHS.payment(theirs);
      const read = await client.get(target, `${path}?entityId=${encodeURIComponent(target.entityId)}`);
      // the upstream not reached: no verdict yet, the payment waits (for the shopper again or its timeout)
      return 'json' in read ? oppAnswer(read.json) : { code: ResultCodes.PENDING };
    },
    inquire: (payment) => inquire(client, target, payment),
    inquireRegistration: (registration) => inquireRegistration(client, target, registration),
    settle: ({ day }) => settleDay(client, target, day),
    verifyNotification: async () => notSupported('verifyNotification'),
    takesCardOnFile: true,
  };
}
