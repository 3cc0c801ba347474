/**
 * What a merchant's backend does server-to-server, for flows that need it: store a card
 * (POST /v1/registrations), read a checkout's status and a payment's, with an account's
 * credentials: the demo merchant's (the harness itself), the live merchant's (`harness.live`,
 * on the live address) or the live acquirer's (`harness.live.acquirer`).
 */
import { type APIRequestContext, expect } from '@playwright/test';
import { TEST_CARD } from '../pages/CardForm';
import type { MerchantAccount } from './harness';

export interface Answer {
  readonly id?: string;
  readonly paymentType?: string;
  readonly paymentBrand?: string;
  readonly amount?: string;
  readonly currency?: string;
  readonly resultDetails?: Readonly<Record<string, string>>;
  readonly result?: { readonly code?: string; readonly description?: string };
  readonly threeDSecure?: {
    readonly eci?: string;
    readonly verificationId?: string;
    readonly authenticationStatus?: string;
  };
}

const auth = (account: MerchantAccount) => ({ authorization: `Bearer ${account.accessToken}` });

/** Stores the test card as a registration and returns its id. */
export async function createRegistration(
  request: APIRequestContext,
  account: MerchantAccount,
): Promise<string> {
  const [month, year] = TEST_CARD.expiry.split('/') as [string, string];
  const res = await request.post(`${account.gatewayUrl}/v1/registrations`, {
    headers: auth(account),
    form: {
      entityId: account.entityId,
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
  account: MerchantAccount,
  checkoutId: string,
  kind: 'payment' | 'registration' = 'payment',
): Promise<Answer> {
  const res = await request.get(
    `${account.gatewayUrl}/v1/checkouts/${checkoutId}/${kind}?entityId=${account.entityId}`,
    { headers: auth(account) },
  );
  return (await res.json()) as Answer;
}

/** GET /v1/payments/{id} as the merchant. */
export async function paymentStatus(
  request: APIRequestContext,
  account: MerchantAccount,
  paymentId: string,
): Promise<Answer> {
  const res = await request.get(
    `${account.gatewayUrl}/v1/payments/${paymentId}?entityId=${account.entityId}`,
    {
      headers: auth(account),
    },
  );
  return (await res.json()) as Answer;
}
