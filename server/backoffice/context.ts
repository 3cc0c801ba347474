/**
 * What every back-office procedure works with: the store, the clock, and the audit log bound to
 * whoever acts (an admin user, the operator's token, or `cli:<os user>`): every change a procedure
 * makes writes its entry there (audit/audit.ts).
 */
import type { Clock, Store } from '../../shared/engine/core/ports';
import type { Audit } from './audit/audit';

export interface BackofficeContext<S extends Store = Store> {
  readonly store: S;
  readonly clock: Clock;
  readonly audit: Audit;
}
