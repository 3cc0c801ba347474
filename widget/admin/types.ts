/** What the admin API answers (docs/admin-api.md), as far as the dashboard reads it. */
import type { PaymentAnswer } from '../../shared/contract';

export type Role = 'operator' | 'merchant-admin' | 'merchant-viewer';
export const ROLES: readonly Role[] = ['operator', 'merchant-admin', 'merchant-viewer'];

export interface User {
  readonly id: string;
  readonly username: string;
  readonly role: Role;
  readonly merchantId: string | null;
  readonly totpEnabled: boolean;
  readonly disabled: boolean;
  readonly createdAt: string;
}

export interface Merchant {
  readonly id: string;
  readonly name: string;
  /** Channel dispatching: entityId may be the merchant's id. */
  readonly dispatching: boolean;
  readonly createdAt: string;
}

export interface Channel {
  readonly entityId: string;
  readonly merchantId: string;
  readonly name: string;
  readonly mode: 'TEST' | 'LIVE';
  readonly environment?: 'test' | 'live';
  readonly brands: readonly string[] | null;
  readonly currencies: readonly string[] | null;
  readonly threeDSecure: boolean;
  /** One-click payments with a stored card must carry its CVV. */
  readonly registrationsRequireCvv?: boolean;
  readonly throttle?: number | null;
  readonly throttlePerMinute?: number | null;
  readonly connector: { readonly baseUrl: string; readonly entityId: string } | null;
  readonly bankAccount?: { readonly iban: string; readonly holder?: string } | null;
}

export interface AccessToken {
  readonly id: string;
  readonly merchantId: string;
  readonly userId: string | null;
  readonly environment: string;
  readonly channels: readonly string[] | null;
  readonly createdAt: string;
  readonly lastUsedAt: string | null;
  readonly revokedAt: string | null;
}

export interface Result {
  readonly code: string;
  readonly description: string;
}

export interface PaymentSummary {
  readonly id: string;
  readonly paymentType: string;
  readonly paymentBrand?: string;
  readonly amount: string;
  readonly currency: string;
  readonly result: Result;
  readonly status: string;
  readonly merchantTransactionId?: string | null;
  readonly shortId?: string | null;
  readonly last4?: string | null;
  readonly createdAt: string;
  readonly entityId?: string;
}

export interface Delivery {
  readonly id: number | string;
  readonly webhookId: string | null;
  readonly type: string;
  readonly action: string | null;
  readonly paymentId: string | null;
  readonly status: 'pending' | 'delivered' | 'dead';
  readonly attempts: number;
  readonly createdAt: string;
  readonly lastAttemptAt: string | null;
  readonly lastStatus: number | null;
  readonly lastError: string | null;
  readonly deliveredAt: string | null;
}

/**
 * A payment's story (GET /admin/v1/merchants/{id}/payments/{paymentId}): its row, and its answer
 * (the contract's payment answer, shared/contract/payment.ts, without result and ndc: the row's).
 */
export interface PaymentStory {
  readonly payment: Partial<PaymentSummary> & {
    readonly referencedId?: string | null;
    readonly response?: Partial<PaymentAnswer>;
  };
  readonly related: readonly Partial<PaymentSummary>[];
  readonly threeDSecure: PaymentAnswer['threeDSecure'] | null;
  readonly risk: PaymentAnswer['risk'] | null;
  readonly deliveries: readonly Delivery[];
  readonly checkout: (Record<string, unknown> & { readonly id: string }) | null;
}

export interface Webhook {
  readonly id: string;
  readonly url: string;
  readonly encrypted: boolean;
  readonly types: readonly string[] | null;
  readonly paymentTypes: readonly string[] | null;
  readonly createdAt: string;
}

export interface SettlementFile {
  readonly date: string;
  readonly entityId: string;
  readonly records: number;
  readonly createdAt: string;
}

export interface Schedule {
  readonly id: string;
  readonly state: string;
  readonly paymentType: string;
  readonly amount: string;
  readonly currency: string;
  readonly job: unknown;
  readonly nextFireAt: string | null;
  readonly registrationId: string;
}

export interface AuditEntry {
  readonly id: string;
  readonly at: string;
  readonly actor: string;
  readonly role: string;
  readonly action: string;
  readonly target: string;
  readonly merchantId: string | null;
  readonly address: string;
}
