/**
 * The operator CLI's audit log: the admin API's page (backoffice/audit/log-query.ts) on the
 * server's store, every entry, as the operator's token sees them.
 */

import { AUDIT_QUERY_FIELDS, auditPage, parseAuditQuery } from '../backoffice/audit/log-query';
import type { AuditQuery } from '../storage/admin-users/store';
import { type FieldFlags, translated } from './args';
import { printList } from './commands';
import type { WebhookCommandContext } from './webhook-commands';

/** Each field of the query is given as the flag of its name. */
const AUDIT_FLAGS: FieldFlags = Object.fromEntries(AUDIT_QUERY_FIELDS.map((name) => [name, `--${name}`]));

/** The flags checked before the store is opened (usage errors name the flags). */
export const checkAuditQuery = (read: (name: string) => string | undefined): AuditQuery =>
  translated(() => parseAuditQuery(read), AUDIT_FLAGS);

export async function listAudit(ctx: WebhookCommandContext, query: AuditQuery) {
  const page = await auditPage(ctx.store, query);
  printList(ctx, page.entries, ['ID', 'AT', 'ACTOR', 'ACTION', 'TARGET', 'ADDRESS'], (e) => [
    String(e.id),
    e.at,
    e.actor,
    e.action,
    e.target ?? '',
    e.address ?? '',
  ]);
  // the page is full: say how to read on, as the admin API's `next` does
  if (page.next !== null)
    ctx.output.err(`more entries: add ${query.newestFirst ? '--before' : '--after'} ${page.next}`);
  return page;
}
