/** What the admin API answers (docs/admin-api.md), as far as the dashboard reads it. */

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
  readonly throttle?: number | null;
  readonly throttlePerMinute?: number | null;
  readonly connector: { readonly baseUrl: string; readonly entityId: string } | null;
  readonly bankAccount?: { readonly iban: string; readonly holder?: string } | null;
}

export interface AccessToken {
  readonly id: string;
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

export interface PaymentStory {
  readonly payment: Record<string, unknown> & Partial<PaymentSummary>;
  readonly related: readonly (Record<string, unknown> & Partial<PaymentSummary>)[];
  readonly threeDSecure: Record<string, unknown> | null;
  readonly risk: Record<string, unknown> | null;
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
