/**
 * What the admin API answers (docs/admin-api.md), as the dashboard reads it: the contract's views
 * (shared/contract/admin-views.ts), imported as types only, so the dashboard's bundle does not grow.
 */
import type {
  AccessTokenView,
  AdminChannel,
  AdminMerchant,
  AdminRole,
  AdminUser,
  ApiRequestView,
  AuditEntryView,
  ConnectorView,
  PaymentStory as ContractPaymentStory,
  Result as ContractResult,
  SearchHit as ContractSearchHit,
  SettlementFile as ContractSettlementFile,
  DeliveryView,
  PaymentRow,
  RegistrationRowView,
  ScheduleRow,
  WebhookView,
} from '../../shared/contract';

export type Role = AdminRole;
// a value the dashboard's forms list; its type is the contract's
export const ROLES: readonly Role[] = ['operator', 'merchant-admin', 'merchant-viewer'];

export type User = AdminUser;
export type Merchant = AdminMerchant;
/**
 * The contract's channel. `environment` and `throttle` are not answered (the mode and
 * `throttlePerMinute` are): optional, for the dashboard's fallbacks; a connector's `entityId`
 * exists on opp connectors only.
 */
export type Channel = Omit<AdminChannel, 'connector'> & {
  readonly connector: (ConnectorView & { readonly entityId?: string }) | null;
  readonly environment?: 'test' | 'live';
  readonly throttle?: number | null;
};
export type AccessToken = AccessTokenView;
export type Result = Pick<ContractResult, 'code' | 'description'>;
export type PaymentSummary = PaymentRow;
export type Delivery = DeliveryView;
/** A payment's story (GET /admin/v1/merchants/{id}/payments/{paymentId}). */
export type PaymentStory = ContractPaymentStory;
export type Webhook = WebhookView;
export type SettlementFile = ContractSettlementFile;
export type Schedule = ScheduleRow;
export type AuditEntry = AuditEntryView;
export type SavedCard = RegistrationRowView;
export type SearchHit = ContractSearchHit;
export type ApiRequest = ApiRequestView;
