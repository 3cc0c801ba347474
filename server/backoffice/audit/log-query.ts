/**
 * The audit log as the dashboard and the admin API read it: newest first, a page older than
 * `before` (the previous page's `next`), filtered by actor, action and a time range [from, to);
 * or, for automation following the log, oldest first after `after`. The query string is checked
 * once, every faulty field named.
 */
import { auditQuery, DEFAULT_AUDIT, MAX_AUDIT } from '../../../shared/contract/admin-queries';
import type { AdminUserStore, AuditQuery, StoredAuditEntry } from '../../storage/admin-users/store';
import { type FieldError, invalid } from '../errors';

export { DEFAULT_AUDIT, MAX_AUDIT };
/** The query string's fields (the CLI gives each as the flag of its name). */
export const AUDIT_QUERY_FIELDS = auditQuery.keyof().options;
// each checked by the contract's rule (shared/contract/admin-queries.ts), the document's too
const FIELDS = auditQuery.shape;
/** The contract's first complaint about one parameter (shared/contract/admin-queries.ts), if any. */
const fault = (name: keyof typeof FIELDS, text: string | undefined): string | undefined => {
  const verdict = FIELDS[name].safeParse(text);
  return verdict.success ? undefined : (verdict.error.issues[0]?.message ?? 'is invalid');
};

const time = (text: string): Date | undefined => {
  const at = new Date(text.length === 10 ? `${text}T00:00:00Z` : text);
  return Number.isNaN(at.getTime()) ? undefined : at;
};

/** The query string's audit query (without the caller's merchant), or the faulty fields. */
export function readAuditQuery(read: (name: string) => string | undefined): AuditQuery | FieldError[] {
  const errors: FieldError[] = [];
  const id = (name: 'after' | 'before'): number | undefined => {
    const text = read(name);
    if (text === undefined) return undefined;
    const message = fault(name, text);
    if (message === undefined) return Number(text);
    errors.push({ name, value: text, message });
    return undefined;
  };
  const instant = (name: 'from' | 'to'): Date | undefined => {
    const text = read(name);
    if (text === undefined || text === '') return undefined;
    const at = fault(name, text) === undefined ? time(text) : undefined;
    if (at === undefined)
      errors.push({
        name,
        value: text,
        message: 'must be an ISO time such as 2026-12-01T09:00:00Z or a day',
      });
    return at;
  };
  const text = (name: 'actor' | 'action'): string | undefined => {
    const value = read(name)?.trim();
    if (value === undefined || value === '') return undefined;
    const message = fault(name, value);
    if (message === undefined) return value;
    errors.push({ name, value: value.slice(0, 40), message });
    return undefined;
  };
  const after = id('after');
  const before = id('before');
  if (after !== undefined && before !== undefined)
    errors.push({ name: 'before', value: String(before), message: 'give after or before, not both' });
  const limitText = read('limit') ?? DEFAULT_AUDIT;
  const limitFault = fault('limit', limitText);
  if (limitFault !== undefined) errors.push({ name: 'limit', value: limitText, message: limitFault });
  const query: AuditQuery = {
    limit: Number(limitText),
    newestFirst: after === undefined,
    ...(after === undefined ? {} : { after }),
    ...(before === undefined ? {} : { before }),
    ...optional('actor', text('actor')),
    ...optional('action', text('action')),
    ...optional('from', instant('from')),
    ...optional('to', instant('to')),
  };
  return errors.length > 0 ? errors : query;
}

const optional = <K extends string, V>(name: K, value: V | undefined) =>
  (value === undefined ? {} : { [name]: value }) as { [key in K]?: V };

/** The query checked for a face that throws: `invalid` naming each faulty field (the CLI's flags). */
export function parseAuditQuery(read: (name: string) => string | undefined): AuditQuery {
  const query = readAuditQuery(read);
  if (Array.isArray(query)) throw invalid(query);
  return query;
}

/** An entry as every face shows it. */
export type AuditEntryView = Omit<StoredAuditEntry, 'at'> & { readonly at: string };

/** A page of the log: its entries in the query's order, and `next` when the page is full. */
export interface AuditPage {
  readonly entries: readonly AuditEntryView[];
  /** The page's last entry: `before` it (newest first) or `after` it (oldest first); null on the last page. */
  readonly next: string | null;
}

export async function auditPage(
  store: Pick<AdminUserStore, 'listAudit'>,
  query: AuditQuery,
): Promise<AuditPage> {
  const entries = await store.listAudit(query);
  return {
    entries: entries.map((e) => ({ ...e, at: e.at.toISOString() })),
    next: entries.length === query.limit ? String(entries[entries.length - 1]!.id) : null,
  };
}
