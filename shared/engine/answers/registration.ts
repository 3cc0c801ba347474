/**
 * A registration as its API answers it (GET /v1/registrations/{id}, its creation) and as its
 * REGISTRATION notifications carry it (decisions: the payloads equal the API's answer).
 */

import type { AnswerTree, RegistrationAnswer } from '../../contract';
import type { Registration } from '../core/model';
import { CONNECTOR_REGISTRATION_ID, REGISTRATION_ANSWER } from '../core/processor';
import { maskedCard } from './response';

/** The registration as GET /v1/registrations/{id} and its creation answer it. */
export function registrationResponse(r: Registration): RegistrationAnswer {
  const card = r.card === undefined ? undefined : maskedCard(r.card);
  const { [CONNECTOR_REGISTRATION_ID]: _connectorId, [REGISTRATION_ANSWER]: _answer, ...stored } = r.details;
  // the echoed request (shared/engine/answers/echo.ts): text all the way down
  const details = stored as Readonly<Record<string, AnswerTree>>;
  return {
    id: r.id,
    paymentBrand: r.paymentBrand,
    ...details,
    ...(card === undefined ? {} : { card }),
    ...(r.initialTransactionId === undefined && r.agreementId === undefined
      ? {}
      : {
          standingInstruction: {
            ...(r.initialTransactionId === undefined ? {} : { initialTransactionId: r.initialTransactionId }),
            ...(r.agreementId === undefined ? {} : { agreementId: r.agreementId }),
          },
        }),
  };
}
