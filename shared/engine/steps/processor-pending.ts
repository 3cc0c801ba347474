/**
 * A connector's payment that its processor answered pending with a redirect of its own (its 3-D
 * Secure challenge, its provider's page; DECISIONS, "Connectors and processors"): recorded
 * pending with a session of kind `connector` that keeps the processor's redirect, and answered
 * `000.200.000` with a redirect of the gateway's own (ConnectorPaths.redirect, by the session id),
 * whose page sends the shopper on to the processor's. The processor was given the gateway's return
 * address (returnAddressOf: by the payment's id), where the shopper comes back and the gateway asks
 * the processor for the verdict (processor-verdict.ts); the merchant's shopperResultUrl is where
 * the shopper goes after that, as after a simulated challenge. Abandoned, it times out with the
 * other pending payments (100.396.103), after a last question to the processor.
 */
import { brandFlow } from '../../brands';
import type { RequestOf } from '../../params/requests';
import { ResultCodes } from '../../result-codes';
import type { PaymentContext } from '../core/deps';
import type { Payment } from '../core/model';
import type { Decision, PaymentSessionStore, Processor } from '../core/ports';
import { type AfterSuccess, afterSuccessOf } from './after-success';
import { ConnectorPaths, startPending } from './asynchronous';
import type { RecordDeps } from './record';

/**
 * The gateway's own return address of payment `paymentId`, for the processor (absolute: another
 * system sends the shopper there); undefined without a public origin, so that nothing is sent
 * that could not come back.
 */
export function returnAddressOf(
  context: Pick<PaymentContext, 'baseUrl'>,
  paymentId: string,
): string | undefined {
  const origin = context.baseUrl;
  if (origin === undefined || !/^https?:\/\//.test(origin)) return undefined;
  return `${origin}${ConnectorPaths.return}/${paymentId}`;
}

/** Whether a processor's decision sends the shopper to the processor's own page first. */
export const sendsShopperToProcessor = (decision: Decision): boolean =>
  decision.code === ResultCodes.PENDING && decision.redirect !== undefined;

/** A connector's brand paid on its processor's provider page (the catalogue's redirect flow). */
export const atProcessorsProvider = (processor: Processor, brand: string | undefined): boolean =>
  processor.kind === 'connector' && brand !== undefined && brandFlow(brand) === 'redirect';

/**
 * What the pending payment keeps of its request (shopperResultUrl: where the shopper goes once it
 * has ended; what a success leaves, planned now: the request is gone then), or of a stand-alone
 * authentication's (nothing left after it).
 */
export type ProcessorPendingStart =
  | RequestOf<'payment'>
  | { readonly shopperResultUrl?: string; readonly afterSuccess: AfterSuccess };

/** Where the payment comes from: its checkout, the gateway's public origin, where its result is read. */
export interface ProcessorPendingContext extends Pick<PaymentContext, 'baseUrl' | 'checkoutId'> {
  readonly resourcePath?: string;
}

/** Records `payment` pending on the processor's redirect of `decision`; the payment as answered. */
export function pendWithProcessor(
  deps: RecordDeps & { readonly store: Pick<PaymentSessionStore, 'insertPaymentSession'> },
  payment: Payment,
  decision: Decision,
  request: ProcessorPendingStart,
  context: ProcessorPendingContext,
): Promise<Payment> {
  // the processor's reference (ConnectorTxID1) is the payment's already: finishing reads it by it
  const withReference: Payment = {
    ...payment,
    details: { ...payment.details, resultDetails: { ...decision.resultDetails } },
  };
  return startPending(deps, withReference, {
    kind: 'connector',
    plan: {
      brand: payment.paymentBrand ?? '',
      afterSuccess: 'afterSuccess' in request ? request.afterSuccess : afterSuccessOf(request),
      ...(decision.redirect === undefined ? {} : { processorRedirect: decision.redirect }),
      ...(context.resourcePath === undefined ? {} : { resourcePath: context.resourcePath }),
    },
    ...(context.checkoutId === undefined ? {} : { checkoutId: context.checkoutId }),
    ...(request.shopperResultUrl === undefined ? {} : { returnUrl: request.shopperResultUrl }),
    ...(context.baseUrl === undefined ? {} : { baseUrl: context.baseUrl }),
  });
}
