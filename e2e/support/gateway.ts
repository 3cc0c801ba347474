/**
 * What a merchant's backend does server-to-server, for flows that need it: store a card
 * (POST /v1/registrations), read a checkout's status and a payment's, with the demo merchant's
 * credentials.
 */
import { type APIRequestContext, expect } from '@playwright/test';
import { TEST_CARD } from '../pages/CardForm';
import type { HarnessInfo } from './harness';

export interface Answer {
  readonly id?: string;
  readonly paymentBrand?: string;
  readonly result?: { readonly code?: string; readonly description?: string };
  readonly threeDSecure?: {
    readonly eci?: string;
    readonly verificationId?: string;
    readonly authenticationStatus?: string;
  };
}

const auth = (harness: HarnessInfo) => ({ authorization: `Bearer ${harness.accessToken}` });

/** Stores the test card as a registration and returns its id. */
export async function createRegistration(request: APIRequestContext, harness: HarnessInfo): Promise<string> {
  const [month, year] = TEST_CARD.expiry.split('/') as [string, string];
  const res = await request.post(`${harness.gatewayUrl}/v1/registrations`, {
    headers: auth(harness),
    form: {
      entityId: harness.entityId,
      paymentBrand: 'VISA',
      'card.number': TEST_CARD.number,
      'card.holder': TEST_CARD.holder,
      'card.expiryMonth': month,
      'card.expiryYear': `20${year}`,
      'card.cvv': TEST_CARD.cvv,
    },
  });
  const body = (await res.json()) as Answer;
  expect(res.status(), JSON.stringify(body)).toBe(200);
  expect(body.id).toMatch(/^[0-9a-f]{32}$/);
  return body.id!;
}

/** GET /v1/checkouts/{id}/payment as the merchant: 000.200.000 while nothing was paid. */
export async function checkoutStatus(
  request: APIRequestContext,
  harness: HarnessInfo,
  checkoutId: string,
  kind: 'payment' | 'registration' = 'payment',
): Promise<Answer> {
  const res = await request.get(
    `${harness.gatewayUrl}/v1/checkouts/${checkoutId}/${kind}?entityId=${harness.entityId}`,
    { headers: auth(harness) },
  );
  return (await res.json()) as Answer;
}

/** GET /v1/payments/{id} as the merchant. */
export async function paymentStatus(
  request: APIRequestContext,
  harness: HarnessInfo,
  paymentId: string,
): Promise<Answer> {
  const res = await request.get(
    `${harness.gatewayUrl}/v1/payments/${paymentId}?entityId=${harness.entityId}`,
    {
      headers: auth(harness),
    },
  );
  return (await res.json()) as Answer;
}
