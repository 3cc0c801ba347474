/**
 * The admin API's webhook inbox (`/admin/v1/merchants/{m}/inbox`): what the merchant's inbox
 * webhooks received, decrypted, oldest first (`type=`, `after=<seq>`, `limit=`), and clearing it.
 * Inbox webhooks are registered like any other (`{"inbox": true}`, backoffice/webhooks/registration.ts).
 */
import type { Context } from 'hono';
import { NOTIFICATION_TYPES } from '../../../../shared/engine/answers/notifications';
import { ResultCodes } from '../../../../shared/result-codes';
import type { InboxNotification, InboxStore } from '../../../storage/inbox/store';
import type { RouteDeps } from '../../context';
import type { AdminKit } from './shared';

export interface AdminInboxDeps {
  readonly inbox?: InboxStore;
}

/** The types an inbox holds: the notifications', and the registration's `test`. */
const INBOX_TYPES: readonly string[] = [...NOTIFICATION_TYPES, 'test'];
const DEFAULT_LIMIT = 100;
const MAX_LIMIT = 500;

/** A received notification as the admin API (and the kit's `webhooks.next()`) shows it. */
export const inboxView = (n: InboxNotification) => ({
  seq: n.seq,
  webhookId: n.webhookId,
  receivedAt: n.receivedAt.toISOString(),
  type: n.type,
  ...(n.action === undefined ? {} : { action: n.action }),
  payload: n.payload,
});

interface Query {
  readonly type?: string;
  readonly afterSeq?: number;
  readonly limit: number;
}

/** The list's query parameters, or the ones it gets wrong. */
function readQuery(c: Context): Query | { name: string; value: string; message: string }[] {
  const errors: { name: string; value: string; message: string }[] = [];
  const type = c.req.query('type');
  const after = c.req.query('after');
  const limit = c.req.query('limit');
  if (type !== undefined && !INBOX_TYPES.includes(type))
    errors.push({ name: 'type', value: type, message: `must be one of ${INBOX_TYPES.join(', ')}` });
  if (after !== undefined && !/^\d{1,15}$/.test(after))
    errors.push({ name: 'after', value: after, message: 'must be a notification’s seq (a whole number)' });
  const n = Number(limit);
  if (limit !== undefined && (!/^\d{1,3}$/.test(limit) || n < 1 || n > MAX_LIMIT))
    errors.push({ name: 'limit', value: limit, message: `must be 1 to ${MAX_LIMIT}` });
  if (errors.length > 0) return errors;
  return {
    ...(type === undefined ? {} : { type }),
    ...(after === undefined ? {} : { afterSeq: Number(after) }),
    limit: limit === undefined ? DEFAULT_LIMIT : n,
  };
}

export function inboxRoutes(deps: RouteDeps, admin: AdminInboxDeps, kit: AdminKit): void {
  const { env } = deps;
  const ok = { code: ResultCodes.SUCCESSFUL_REQUEST, description: 'successful request' };
  const notFound = (c: Context) =>
    env.send(c, 404, { code: ResultCodes.ENTITY_NOT_FOUND, description: 'merchant not found' });
  const inboxOf = async (c: Context) => {
    const merchant = await deps.store.getMerchant(c.req.param('merchantId') ?? '');
    return merchant === undefined || admin.inbox === undefined ? undefined : { merchant, inbox: admin.inbox };
  };

  kit.route('GET', '/admin/v1/merchants/:merchantId/inbox', 'read', async (c) => {
    const found = await inboxOf(c);
    if (found === undefined) return notFound(c);
    const query = readQuery(c);
    if (Array.isArray(query))
      return env.send(c, 400, {
        code: ResultCodes.INVALID_PARAMETER,
        description: 'invalid or missing parameter',
        parameterErrors: query,
      });
    const notifications = await found.inbox.listInbox(found.merchant.id, query);
    return env.send(c, 200, ok, { notifications: notifications.map(inboxView) });
  });

  kit.route('DELETE', '/admin/v1/merchants/:merchantId/inbox', 'write', async (c) => {
    const found = await inboxOf(c);
    if (found === undefined) return notFound(c);
    const cleared = await found.inbox.clearInbox(found.merchant.id);
    await kit.audit(c, 'inbox.clear', found.merchant.id, found.merchant.id);
    return env.send(c, 200, ok, { cleared });
  });
}
