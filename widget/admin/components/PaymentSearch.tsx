/** The payments' search form; its fields go into the location's query, so a search can be linked. */
import { useState } from 'preact/hooks';
import { Field, Select } from './Field';
import { onSubmit } from './useAction';

export const SEARCH_FIELDS = [
  'id',
  'merchantTransactionId',
  'shortId',
  'from',
  'to',
  'status',
  'brand',
  'amount',
] as const;
export type Search = Partial<Record<(typeof SEARCH_FIELDS)[number], string>>;

export function searchOf(query: URLSearchParams): Search {
  const search: Search = {};
  for (const name of SEARCH_FIELDS) {
    const value = query.get(name);
    if (value) search[name] = value;
  }
  return search;
}

interface Props {
  readonly initial: Search;
  readonly errorOf: (field: string) => string | undefined;
  readonly onSearch: (search: Search) => void;
}

export function PaymentSearch({ initial, errorOf, onSearch }: Props) {
  const [search, setSearch] = useState<Search>(initial);
  const set = (name: keyof Search) => (value: string) => setSearch((s) => ({ ...s, [name]: value }));
  const text = (name: keyof Search, label: string, extra: Record<string, string> = {}) => (
    <Field label={label} value={search[name] ?? ''} onValue={set(name)} error={errorOf(name)} {...extra} />
  );
  return (
    <form class="search" aria-label="Search payments" onSubmit={onSubmit(() => onSearch(search))} noValidate>
      <div class="grid">
        {text('id', 'Payment id')}
        {text('merchantTransactionId', 'Merchant transaction id')}
        {text('shortId', 'Short id')}
        {text('from', 'From date (UTC)', { type: 'date' })}
        {text('to', 'To date (UTC)', { type: 'date' })}
        <Select
          label="Status"
          value={search.status ?? ''}
          onValue={set('status')}
          error={errorOf('status')}
          options={[
            ['', 'Any'],
            ['success', 'Successful'],
            ['pending', 'Pending'],
            ['declined', 'Declined'],
            ['rejected', 'Rejected'],
          ]}
        />
        {text('brand', 'Brand')}
        {text('amount', 'Amount', { inputMode: 'decimal' })}
      </div>
      <button type="submit">Search</button>{' '}
      <button
        type="button"
        class="secondary"
        onClick={() => {
          setSearch({});
          onSearch({});
        }}
      >
        Clear
      </button>
    </form>
  );
}
