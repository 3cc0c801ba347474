/**
 * Any connector as the engine's Processor port: the kit's side of the contract. It picks the
 * contract's operation for each order, hands the connector the processor's own ids of what an
 * order references, and maps every answer onto the family's result codes (DECISIONS, "Connectors
 * and processors"):
 *
 * - a success is answered as the mode's success: 000.100.112 ("Connector Test Mode") on an
 *   EXTERNAL test, 000.000.000 on a live channel;
 * - a refusal keeps its code; an unknown code, or a pending answer without a redirect, becomes
 *   999.999.999; 900.100.300 (no answer in time) stays uncertain;
 * - a pending answer with the processor's redirect (its 3-D Secure challenge, its provider's
 *   page) is pending (000.200.000) with that redirect kept in the decision: the engine answers a
 *   redirect of its own (shared/engine/steps/processor-pending.ts) and, when the shopper comes back
 *   to the gateway's return address (order.returnUrl), asks `finish` for the verdict;
 * - an operation the connector does not support is refused as 600.200.201, nothing sent;
 * - the processor's own code is resultDetails.AcquirerResponse, its reference ConnectorTxID1
 *   (payments) or ConnectorRegistrationID (registrations, stored unanswered); its avsResponse,
 *   cvvResponse, card details, risk.score and other resultDetails come back with the decision.
 */
import type { Decision, Processor, ReferenceOrder } from '../../../shared/engine/core/ports';
import { connectorIdOf, connectorRegistrationIdOf } from '../../../shared/engine/core/processor';
import { isKnownCode, isPending, isSuccess, ResultCodes } from '../../../shared/result-codes';
import { type ConnectorAnswer, type ConnectorContract, isNotSupported, type NotSupported } from './contract';

export type Environment = 'EXTERNAL' | 'LIVE';

/** The family's code of a connector's answer in `environment`. */
export function familyCodeOf(answer: ConnectorAnswer, environment: Environment): string {
  if (isSuccess(answer.code))
    return environment === 'EXTERNAL' ? ResultCodes.SUCCESS_EXTERNAL : ResultCodes.SUCCESS_LIVE;
  // Pending with somewhere to send the shopper: the gateway sends them there and back.
  if (isPending(answer.code) && answer.redirect !== undefined) return ResultCodes.PENDING;
  // Pending without a redirect has nobody to finish it: it is no success, and the shopper must
  // not wait for what cannot come.
  return isKnownCode(answer.code) && !isPending(answer.code)
    ? answer.code
    : ResultCodes.UNDEFINED_CONNECTOR_ERROR;
}

/** A connector's answer as the engine's Decision; `idName` is where its reference is kept. */
export function decisionOf(
  answer: ConnectorAnswer | NotSupported,
  environment: Environment,
  idName: 'ConnectorTxID1' | 'ConnectorRegistrationID' = 'ConnectorTxID1',
): Decision {
  const testMode = environment === 'EXTERNAL' ? ({ testMode: 'EXTERNAL' } as const) : {};
  if (isNotSupported(answer))
    return {
      ...testMode,
      code: ResultCodes.CHANNEL_NOT_CONFIGURED_FOR_METHOD,
      result: {},
      resultDetails: {},
    };
  const code = familyCodeOf(answer, environment);
  const acquirerResponse = answer.processorCode ?? (answer.code === code ? undefined : answer.code);
  return {
    ...testMode,
    code,
    result: { ...answer.result },
    resultDetails: {
      ...answer.resultDetails,
      ...(answer.id === undefined ? {} : { [idName]: answer.id }),
      ...(answer.registrationId === undefined ? {} : { ConnectorRegistrationID: answer.registrationId }),
      ...(acquirerResponse === undefined ? {} : { AcquirerResponse: acquirerResponse }),
      clearingInstituteName: 'Connector',
    },
    ...(answer.card === undefined ? {} : { card: answer.card }),
    ...(answer.risk === undefined ? {} : { risk: answer.risk }),
    ...(answer.redirect === undefined || code !== ResultCodes.PENDING ? {} : { redirect: answer.redirect }),
    ...(answer.threeDSecure === undefined ? {} : { threeDSecure: answer.threeDSecure }),
  };
}

/**
 * The verdict `finish` read: the processor's final answer as any other, or pending (000.200.000,
 * nothing else) while it has none yet: the payment waits on, for the shopper or its timeout. One
 * the processor could not be asked for, or cannot tell yet though the shopper is done with it
 * (`technical`), is pending with its technical mark: the engine asks again later, never a failure
 * (steps/processor-verdict.ts).
 */
export function verdictOf(answer: ConnectorAnswer | NotSupported, environment: Environment): Decision {
  if (!isNotSupported(answer) && (isPending(answer.code) || answer.technical !== undefined)) {
    const { redirect: _redirect, ...rest } = answer;
    return {
      ...decisionOf(rest, environment),
      code: ResultCodes.PENDING,
      ...(answer.technical === undefined ? {} : { technical: answer.technical }),
    };
  }
  return decisionOf(answer, environment);
}

/**
 * A payment whose outcome is uncertain (the connector's `technical: 'uncertain'`): an initial
 * one, a capture, refund, reversal or rebill, a payment with a registration, or a registration
 * (inquireRegistration asks about it). It may have been
 * processed, so it is no failure: pending (000.200.000), the engine keeps it with an inquiry
 * (shared/engine/steps/inquiry.ts) and never sends it again. A refused one (nothing sent) stays
 * the failure decisionOf makes of it.
 */
export function uncertainDecisionOf(
  answer: ConnectorAnswer | NotSupported,
  environment: Environment,
): Decision | undefined {
  if (isNotSupported(answer) || answer.technical !== 'uncertain') return undefined;
  return {
    ...(environment === 'EXTERNAL' ? { testMode: 'EXTERNAL' } : {}),
    code: ResultCodes.PENDING,
    technical: 'uncertain',
    result: {},
    resultDetails: { clearingInstituteName: 'Connector' },
  };
}

/**
 * What `inquire` found, as the engine's inquiry reads it: the processor's verdict mapped like any
 * answer, pending (000.200.000) while it decides, 700.400.580 when it has no such payment, the
 * technical failure when it could not be asked (kit/contract.ts, `inquire`).
 */
export function inquiryOf(
  answer: ConnectorAnswer | NotSupported,
  environment: Environment,
  idName: 'ConnectorTxID1' | 'ConnectorRegistrationID' = 'ConnectorTxID1',
): Decision {
  if (isNotSupported(answer)) return { ...decisionOf(answer, environment), technical: 'refused' };
  if (answer.technical !== undefined)
    return { ...decisionOf(answer, environment, idName), technical: answer.technical };
  if (isPending(answer.code))
    return { ...decisionOf(answer, environment, idName), code: ResultCodes.PENDING };
  return decisionOf(answer, environment, idName);
}

const REFERENCE_OPERATIONS = { CP: 'capture', RF: 'refund', RV: 'reverse', RB: 'rebill' } as const;

/** The paymentType of an initial payment → the contract's operation. */
function payOperation(request: object): 'authorize' | 'debit' | 'credit' {
  const type = (request as { readonly paymentType?: string }).paymentType;
  return type === 'PA' ? 'authorize' : type === 'CD' ? 'credit' : 'debit';
}

/** `connector` as the Processor of a channel in `environment`. */
export function connectorProcessor(connector: ConnectorContract, environment: Environment): Processor {
  return {
    kind: 'connector',
    testMode: environment === 'EXTERNAL' ? 'EXTERNAL' : undefined,
    pay: async (order) => {
      const theirs = order.original === undefined ? undefined : connectorIdOf(order.original);
      const answer = await connector[payOperation(order.request)]({
        ...order,
        ...(theirs === undefined ? {} : { theirOriginalId: theirs }),
      });
      return uncertainDecisionOf(answer, environment) ?? decisionOf(answer, environment);
    },
    reference: async (order: ReferenceOrder) => {
      const operation = REFERENCE_OPERATIONS[order.paymentType];
      const answer = await connector[operation]({ ...order, theirId: connectorIdOf(order.referenced) ?? '' });
      return uncertainDecisionOf(answer, environment) ?? decisionOf(answer, environment);
    },
    // an uncertain registration is pending too, until inquireRegistration says (never a failure)
    register: async (order) => {
      const answer = await connector.register(order);
      return (
        uncertainDecisionOf(answer, environment) ?? decisionOf(answer, environment, 'ConnectorRegistrationID')
      );
    },
    payWithRegistration: async (order) => {
      const theirRegistrationId = connectorRegistrationIdOf(order.registration) ?? '';
      const answer = await connector.payWithRegistration({ ...order, theirRegistrationId });
      return uncertainDecisionOf(answer, environment) ?? decisionOf(answer, environment);
    },
    finish: async (order) =>
      verdictOf(
        await connector.finish({
          payment: order.payment,
          parameters: order.parameters,
          ...(order.abandoned === true ? { abandoned: true as const } : {}),
        }),
        environment,
      ),
    authenticate: async (order) => decisionOf(await connector.authenticate(order), environment),
    inquire: async (payment, _channel, referenced) =>
      inquiryOf(await connector.inquire(payment, referenced), environment),
    inquireRegistration: async (registration) =>
      inquiryOf(await connector.inquireRegistration(registration), environment, 'ConnectorRegistrationID'),
    ...(connector.brands === undefined ? {} : { brands: connector.brands }),
  };
}
