/**
 * The dashboard's records (admin API): a merchant's saved cards (registrations) as the list
 * shows them, a hit of the search box, and one of a merchant's recent API requests. JSON
 * numbers and nulls kept, as the other admin views. server/backoffice/registrations/,
 * search/ and requests/ build them.
 */
import * as z from 'zod';

export const registrationRowView = z.object({
  id: z.string(),
  entityId: z.string().describe('The channel it was registered on.'),
  paymentBrand: z.string(),
  bin: z
    .string()
    .nullable()
    .describe('The card\u2019s first six digits, as the API answers them; null: no card.'),
  last4: z.string().nullable(),
  expiryMonth: z.string().nullable(),
  expiryYear: z.string().nullable(),
  holder: z.string().nullable().describe('As GET /v1/registrations/{id} answers it.'),
  route: z
    .object({
      index: z.number().int().describe('Its place in the channel\u2019s routes (0 first).'),
      kind: z.string().describe('That route\u2019s connector kind.'),
    })
    .nullable()
    .describe(
      'The route holding it, where a channel\u2019s routes made it or an operator moved it; null: none (the simulator made it, or a connector before routes).',
    ),
  status: z.enum(['active', 'deleted']),
  createdAt: z.string().describe('ISO 8601, UTC.'),
  deletedAt: z.string().nullable().describe('ISO 8601, UTC; null while it may be paid with.'),
});

export const searchHit = z.object({
  kind: z.enum(['payment', 'registration', 'checkout', 'merchant']),
  id: z.string(),
  merchantId: z.string(),
  label: z.string().describe('What the dashboard shows of it.'),
  paymentId: z.string().nullable().describe('The payment it is or made (a checkout\u2019s), if any.'),
});

export const apiRequestView = z.object({
  method: z.string(),
  route: z
    .string()
    .describe('The route pattern that answered (`/v1/payments/:id`), never the path with its ids.'),
  status: z.number().int(),
  resultCode: z.string().nullable().describe('null: answered outside the envelope.'),
  durationMs: z.number().describe('To a tenth of a millisecond.'),
  requestId: z.string().describe('The X-Request-Id of its answer.'),
  at: z.string().describe('ISO 8601, UTC.'),
});

export type RegistrationRowView = z.infer<typeof registrationRowView>;
export type SearchHit = z.infer<typeof searchHit>;
export type ApiRequestView = z.infer<typeof apiRequestView>;
