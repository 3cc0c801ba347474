/**
 * The family's JSON envelope (spec, "Response"): what every answer ends with, result (code,
 * description, the parameterErrors of an invalid request, the acquirer's AVS and CVV answers),
 * buildNumber, timestamp and ndc.
 */
import * as z from 'zod';
import { answerTree, group, named, optionalText } from './registry';

export const RESULT_CODE_PATTERN = '^[0-9]{3}\\.[0-9]{3}\\.[0-9]{3}$';

export const resultCode = named(
  'ResultCode',
  z
    .string()
    .regex(new RegExp(RESULT_CODE_PATTERN))
    .describe('A result code: its group says success, pending or rejected.'),
);

export const parameterError = named(
  'ParameterError',
  z.object({
    name: z.string().describe('The wire name, e.g. card.expiryMonth.'),
    value: z
      .string()
      .nullable()
      .describe('As sent; card data, security codes and account numbers masked; null when missing.'),
    message: z.string(),
  }),
);

export const result = named(
  'Result',
  z
    .object({
      code: resultCode,
      description: z.string(),
      parameterErrors: z
        .array(parameterError)
        .optional()
        .describe(
          'Every invalid or missing parameter (the first 50, then a `(body)` entry counting the rest).',
        ),
      avsResponse: optionalText().describe("The acquirer's address verification answer."),
      cvvResponse: optionalText().describe("The acquirer's security code answer."),
    })
    .catchall(answerTree),
);

/** What the HTTP layer stamps on every answer (server/http/middleware/envelope). */
export const stamps = {
  buildNumber: z.string().describe('<commit>@yyyy-MM-dd HH:mm:ss +0000'),
  timestamp: z.string().describe('yyyy-MM-dd HH:mm:ss+0000 (UTC)'),
  ndc: z.string(),
} as const;

/**
 * An answer that is only the envelope (a refusal, an invalid request, a deletion) or one whose
 * own fields the contract does not describe yet: result and the stamps, anything else unknown
 * (the admin API's answers keep their JSON numbers and booleans, unlike the family's).
 */
export const envelope = named(
  'Envelope',
  z
    .object({ id: optionalText(), result, ...stamps })
    .catchall(z.unknown())
    .describe(
      "The family's JSON answer: what the operation answers, then result, buildNumber, timestamp and ndc.",
    ),
);

/**
 * An answer as the engine builds it from its fields, and the same on the wire (result and the
 * stamps added), named for the document.
 */
export function answered<Shape extends z.ZodRawShape>(id: string, fields: Shape, description: string) {
  return {
    answer: group(fields),
    wire: named(id, group({ ...fields, result, ...stamps }).describe(description)),
  };
}

export type ResultCode = z.infer<typeof resultCode>;
export type ParameterError = z.infer<typeof parameterError>;
export type Result = z.infer<typeof result>;
export type Envelope = z.infer<typeof envelope>;
