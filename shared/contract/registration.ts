/**
 * A registration (stored payment details) as GET /v1/registrations/{id} and its creation answer
 * it, and as its REGISTRATION notifications carry it (shared/engine/answers/registration.ts).
 */
import * as z from 'zod';
import { answered } from './envelope';
import { answeredCard } from './payment';
import { echoedGroup, group, optionalText } from './registry';

const registrationFields = {
  id: z.string(),
  paymentBrand: optionalText(),
  merchantTransactionId: optionalText(),
  card: answeredCard.optional(),
  standingInstruction: group({
    initialTransactionId: optionalText(),
    agreementId: optionalText(),
  }).optional(),
  customer: echoedGroup().optional(),
  billing: echoedGroup().optional(),
  bankAccount: echoedGroup().optional(),
} as const;

/** The registration as the engine answers it (`answer`, no envelope) and on the wire. */
const registrationAnswers = answered(
  'Registration',
  registrationFields,
  'Stored payment details: the id to pay with, the brand, the card as a mask, then the envelope.',
);
export const registrationAnswer = registrationAnswers.answer;
export const registration = registrationAnswers.wire;

export type RegistrationAnswer = z.infer<typeof registrationAnswer>;
export type Registration = z.infer<typeof registration>;
