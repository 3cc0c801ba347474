/**
 * Any connector as the engine's Processor port: the kit's side of the contract. It picks the
 * contract's operation for each order, hands the connector the processor's own ids of what an
 * order references, and maps every answer onto the family's result codes (DECISIONS, "Connectors
 * and processors"):
 *
 * - a success is answered as the mode's success: 000.100.112 ("Connector Test Mode") on an
 *   EXTERNAL test, 000.000.000 on a live channel;
 * - a refusal keeps its code; an unknown code, or a pending answer this kit cannot carry yet,
 *   becomes 999.999.999; 900.100.300 (no answer in time) stays uncertain;
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
  // A pending answer would need the shopper sent to the processor's redirect, which is not
  // passed on yet: it is no success, and the shopper must not wait for what cannot come.
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
  };
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
      return decisionOf(answer, environment);
    },
    reference: async (order: ReferenceOrder) => {
      const operation = REFERENCE_OPERATIONS[order.paymentType];
      const answer = await connector[operation]({ ...order, theirId: connectorIdOf(order.referenced) ?? '' });
      return decisionOf(answer, environment);
    },
    register: async (order) =>
      decisionOf(await connector.register(order), environment, 'ConnectorRegistrationID'),
    payWithRegistration: async (order) => {
      const theirRegistrationId = connectorRegistrationIdOf(order.registration) ?? '';
      return decisionOf(await connector.payWithRegistration({ ...order, theirRegistrationId }), environment);
    },
  };
}
