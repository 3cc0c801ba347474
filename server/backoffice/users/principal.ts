/**
 * Who acts on the admin API: the operator's bearer token (automation, role operator) or a
 * signed-in user (their role and merchant). The admin middleware leaves it on the context
 * (`c.var.admin`); the role middleware and every route read it.
 */
import type { AdminRole } from '../../storage/admin-users/store';

export interface AdminPrincipal {
  readonly kind: 'token' | 'session';
  readonly role: AdminRole;
  /** null for operators: every merchant. */
  readonly merchantId: string | null;
  /** The user's id; null for the operator's token. */
  readonly userId: string | null;
  /** The username, or `operator-token`. */
  readonly actor: string;
}

export const OPERATOR_TOKEN: AdminPrincipal = Object.freeze({
  kind: 'token',
  role: 'operator',
  merchantId: null,
  userId: null,
  actor: 'operator-token',
});

/** Whether the principal may see the merchant's things (an operator: any merchant). */
export const mayActOn = (principal: AdminPrincipal, merchantId: string): boolean =>
  principal.merchantId === null || principal.merchantId === merchantId;
