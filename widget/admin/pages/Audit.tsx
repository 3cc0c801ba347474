/**
 * The audit log: who did what, when, from where (operators: everything; admins: their
 * merchant's), newest first, filtered by actor, action and a time range; older pages by `before`.
 */
import { useState } from 'preact/hooks';
import { ApiError, get, query } from '../api';
import { Loading } from '../components/Alert';
import { DataTable } from '../components/DataTable';
import { Field } from '../components/Field';
import { Page } from '../components/Page';
import { onSubmit } from '../components/useAction';
import { useLoad } from '../components/useLoad';
import { formatDate } from '../format';
import { href, navigate, route } from '../router';
import type { AuditEntry } from '../types';

const FILTERS = ['actor', 'action', 'from', 'to'] as const;
type Filters = Record<(typeof FILTERS)[number], string>;

function FilterForm({ initial, error }: { initial: Filters; error: Error | undefined }) {
  const [filters, setFilters] = useState<Filters>(initial);
  const set = (name: keyof Filters) => (value: string) => setFilters({ ...filters, [name]: value });
  const fieldError = (name: string) => (error instanceof ApiError ? error.field(name) : undefined);
  return (
    <form
      class="search"
      aria-label="Filter the audit log"
      noValidate
      onSubmit={onSubmit(() => navigate('/audit', filters))}
    >
      <div class="grid">
        <Field
          label="Actor"
          value={filters.actor}
          onValue={set('actor')}
          hint="A username, operator-token or cli:…"
          error={fieldError('actor')}
        />
        <Field
          label="Action"
          value={filters.action}
          onValue={set('action')}
          hint="Such as payment.RF, token.revoke"
          error={fieldError('action')}
        />
        <Field
          label="From (UTC)"
          type="date"
          value={filters.from}
          onValue={set('from')}
          error={fieldError('from')}
        />
        <Field
          label="Until (before, UTC)"
          type="date"
          value={filters.to}
          onValue={set('to')}
          error={fieldError('to')}
        />
      </div>
      <button type="submit">Filter</button>
    </form>
  );
}

export function Audit() {
  const q = route.value.query;
  const filters = Object.fromEntries(FILTERS.map((name) => [name, q.get(name) ?? ''])) as Filters;
  const before = q.get('before') ?? undefined;
  const key = `${before ?? ''}|${FILTERS.map((n) => filters[n]).join('|')}`;
  const log = useLoad(
    () =>
      get<{ entries: AuditEntry[]; next: string | null }>(
        `/audit${query({ ...filters, before, limit: 50 })}`,
      ),
    [key],
  );
  return (
    <Page title="Audit log">
      <FilterForm key={key} initial={filters} error={log.error} />
      <Loading data={log.data} error={log.error} />
      {log.data && log.data.entries.length === 0 && <p class="muted">Nothing recorded that matches.</p>}
      {log.data && log.data.entries.length > 0 && (
        <DataTable
          label="Audit log, newest first"
          columns={['When', 'Who', 'Action', 'Target', 'Merchant', 'Address']}
        >
          {log.data.entries.map((e) => (
            <tr key={e.id}>
              <td>{formatDate(e.at)}</td>
              <td>
                {e.actor} <span class="muted">({e.role})</span>
              </td>
              <td>{e.action}</td>
              <td>
                <code>{e.target}</code>
              </td>
              <td>{e.merchantId ? <code>{e.merchantId}</code> : '—'}</td>
              <td>{e.address}</td>
            </tr>
          ))}
        </DataTable>
      )}
      <nav aria-label="Pages of the audit log" class="pager">
        {before !== undefined && <a href={href('/audit', filters)}>Newest entries</a>}
        {log.data?.next && <a href={href('/audit', { ...filters, before: log.data.next })}>Older entries</a>}
      </nav>
    </Page>
  );
}
