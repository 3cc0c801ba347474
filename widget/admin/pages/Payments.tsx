/** A merchant's payments: search (the location's query) and keyset pages, newest first. */
import { useEffect } from 'preact/hooks';
import { API, ApiError, get, query, seg } from '../api';
import { Loading } from '../components/Alert';
import { DataTable } from '../components/DataTable';
import { Page } from '../components/Page';
import { PaymentSearch, type Search, searchOf } from '../components/PaymentSearch';
import { useLoad } from '../components/useLoad';
import { formatAmount, formatDate } from '../format';
import { href, navigate, route } from '../router';
import { openMerchant } from '../state/merchant';
import type { PaymentSummary } from '../types';

const PAGE_SIZE = 25;

/**
 * The date range as the API reads it: the start of `from`, the end of `to`, in UTC: the time base
 * of every date the dashboard shows (format.ts), never the browser's time zone.
 */
function range(search: Search): { from?: string; to?: string } {
  const day = (text: string | undefined, end: boolean) => {
    if (!text || !/^\d{4}-\d{2}-\d{2}$/.test(text)) return text;
    const [y, m, d] = text.split('-').map(Number) as [number, number, number];
    return new Date(Date.UTC(y, m - 1, end ? d + 1 : d)).toISOString();
  };
  return { from: day(search.from, false), to: day(search.to, true) };
}

export function Payments({ merchantId }: { merchantId: string }) {
  useEffect(() => openMerchant(merchantId), [merchantId]);
  const { query: location } = route.value;
  const search = searchOf(location);
  const after = location.get('after') ?? undefined;
  const key = location.toString();
  const page = useLoad(
    () =>
      get<{ payments: PaymentSummary[]; next: string | null }>(
        `/merchants/${seg(merchantId)}/payments${query({ ...search, ...range(search), limit: PAGE_SIZE, after })}`,
      ),
    [merchantId, key],
  );
  const base = `/merchants/${encodeURIComponent(merchantId)}/payments`;
  const errorOf = (field: string) => (page.error instanceof ApiError ? page.error.field(field) : undefined);
  return (
    <Page title="Payments">
      <PaymentSearch initial={search} errorOf={errorOf} onSearch={(s) => navigate(base, s)} />
      <p>
        {/* the same filters, every page: the file is streamed by the gateway */}
        <a
          href={`${API}/merchants/${seg(merchantId)}/payments.csv${query({ ...search, ...range(search) })}`}
          download
        >
          Export these payments as CSV
        </a>
      </p>
      <Loading data={page.data} error={page.error} />
      {page.data && page.data.payments.length === 0 && <p role="status">No payments match.</p>}
      {page.data && page.data.payments.length > 0 && (
        <DataTable
          label="Payments, newest first"
          columns={[
            'Date',
            'Id',
            'Merchant transaction id',
            'Type',
            'Brand',
            { label: 'Amount', number: true },
            'Status',
            'Result',
          ]}
        >
          {page.data.payments.map((p) => (
            <tr key={p.id}>
              <td>{formatDate(p.createdAt)}</td>
              <td>
                <a href={href(`${base}/${encodeURIComponent(p.id)}`)}>
                  <code>{p.id}</code>
                </a>
              </td>
              <td>{p.merchantTransactionId ?? '—'}</td>
              <td>{p.paymentType}</td>
              <td>
                {p.paymentBrand ?? ''} {p.last4 ? `•••• ${p.last4}` : ''}
              </td>
              <td class="number">{formatAmount(p.amount, p.currency)}</td>
              <td>
                <span class={`badge badge-${p.status}`}>{p.status}</span>
              </td>
              <td>
                <code>{p.result.code}</code> {p.result.description}
              </td>
            </tr>
          ))}
        </DataTable>
      )}
      <nav aria-label="Pages of payments" class="pager">
        {after !== undefined && <a href={href(base, search)}>First page</a>}
        {page.data?.next && <a href={href(base, { ...search, after: page.data.next })}>Next page</a>}
      </nav>
    </Page>
  );
}
