/**
 * One search box: a payment id or merchantTransactionId, a saved card's id, a checkout id, a
 * merchant's id or name. Operators search every merchant; a merchant's user their own. Each
 * result links to its page.
 */
import { useState } from 'preact/hooks';
import { ApiError, get, query } from '../api';
import { Loading } from '../components/Alert';
import { Field } from '../components/Field';
import { Page } from '../components/Page';
import { onSubmit } from '../components/useAction';
import { useLoad } from '../components/useLoad';
import { href, navigate, route } from '../router';
import type { SearchHit } from '../types';

const KIND: Record<SearchHit['kind'], string> = {
  payment: 'Payment',
  registration: 'Saved card',
  checkout: 'Checkout',
  merchant: 'Merchant',
};

function pageOf(hit: SearchHit): string {
  const m = `/merchants/${encodeURIComponent(hit.merchantId)}`;
  if (hit.paymentId !== null) return href(`${m}/payments/${encodeURIComponent(hit.paymentId)}`);
  if (hit.kind === 'registration') return href(`${m}/registrations`);
  return href(m);
}

export function Search() {
  const q = route.value.query.get('q') ?? '';
  const [text, setText] = useState(q);
  const found = useLoad(
    () => (q === '' ? Promise.resolve(undefined) : get<{ results: SearchHit[] }>(`/search${query({ q })}`)),
    [q],
  );
  const error = found.error instanceof ApiError ? found.error.field('q') : undefined;
  return (
    <Page title="Search">
      <form
        class="search"
        aria-label="Search records"
        onSubmit={onSubmit(() => navigate('/search', { q: text.trim() }))}
      >
        <Field
          label="Payment, merchantTransactionId, saved card, checkout or merchant"
          value={text}
          onValue={setText}
          error={error}
        />
        <button type="submit">Search</button>
      </form>
      {q !== '' && error === undefined && <Loading data={found.data} error={found.error} />}
      {found.data && found.data.results.length === 0 && <p role="status">Nothing found for “{q}”.</p>}
      {found.data && found.data.results.length > 0 && (
        <ul class="results" aria-label="Search results">
          {found.data.results.map((hit) => (
            <li key={`${hit.kind}-${hit.id}`}>
              <span class="badge">{KIND[hit.kind]}</span>{' '}
              <a href={pageOf(hit)}>
                <code>{hit.id}</code>
              </a>{' '}
              {hit.label}
            </li>
          ))}
        </ul>
      )}
    </Page>
  );
}
