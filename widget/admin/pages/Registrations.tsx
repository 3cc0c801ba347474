/**
 * A merchant's saved cards (registrations): newest first in keyset pages, the card as the API
 * answers it; a merchant admin or operator deletes one after saying what deleting means.
 */
import { useEffect } from 'preact/hooks';
import { del, get, query, seg } from '../api';
import { ActionButton } from '../components/ActionButton';
import { ActionMessages } from '../components/ActionMessages';
import { Loading } from '../components/Alert';
import { DataTable } from '../components/DataTable';
import { Page } from '../components/Page';
import { useAction } from '../components/useAction';
import { useLoad } from '../components/useLoad';
import { formatDate } from '../format';
import { href, route } from '../router';
import { openMerchant } from '../state/merchant';
import { canChange } from '../state/session';
import type { SavedCard } from '../types';

const PAGE_SIZE = 25;

const cardOf = (r: SavedCard) =>
  r.last4 === null
    ? '—'
    : `${r.bin ?? ''}•••• ${r.last4}${r.expiryMonth ? ` (${r.expiryMonth}/${r.expiryYear})` : ''}`;

export function Registrations({ merchantId }: { merchantId: string }) {
  useEffect(() => openMerchant(merchantId), [merchantId]);
  const after = route.value.query.get('after') ?? undefined;
  const page = useLoad(
    () =>
      get<{ registrations: SavedCard[]; next: string | null }>(
        `/merchants/${seg(merchantId)}/registrations${query({ limit: PAGE_SIZE, after })}`,
      ),
    [merchantId, after],
  );
  const remove = useAction();
  const base = `/merchants/${encodeURIComponent(merchantId)}/registrations`;
  return (
    <Page title="Saved cards">
      <p class="muted">
        Cards and other payment details shoppers let this merchant keep (registrations), newest first.
      </p>
      <ActionMessages action={remove} />
      <Loading data={page.data} error={page.error} />
      {page.data && page.data.registrations.length === 0 && <p role="status">No saved cards.</p>}
      {page.data && page.data.registrations.length > 0 && (
        <DataTable
          label="Saved cards, newest first"
          columns={['Created', 'Id', 'Brand', 'Card', 'Holder', 'Status', canChange.value && 'Action']}
        >
          {page.data.registrations.map((r) => (
            <tr key={r.id}>
              <td>{formatDate(r.createdAt)}</td>
              <td>
                <code>{r.id}</code>
              </td>
              <td>{r.paymentBrand}</td>
              <td>{cardOf(r)}</td>
              <td>{r.holder ?? '—'}</td>
              <td>
                {r.status === 'active' ? (
                  <span class="badge badge-success">active</span>
                ) : (
                  <span class="badge badge-rejected">
                    deleted {r.deletedAt ? formatDate(r.deletedAt) : ''}
                  </span>
                )}
              </td>
              {canChange.value && (
                <td>
                  {r.status === 'active' && (
                    <ActionButton
                      action={remove}
                      class="danger"
                      label={`Delete saved card ${r.id}`}
                      confirm={`The ${r.paymentBrand} card ${cardOf(r)} is deleted as DELETE /v1/registrations/${r.id} deletes it: nothing can pay with it any more (one-click and scheduled payments with it are refused), the merchant is sent a REGISTRATION DELETED notification, and the shopper must enter the card again. This cannot be undone.`}
                      work={async () => {
                        await del(`/merchants/${seg(merchantId)}/registrations/${seg(r.id)}`);
                        page.reload();
                        return `Saved card ${r.id} deleted.`;
                      }}
                    >
                      Delete
                    </ActionButton>
                  )}
                </td>
              )}
            </tr>
          ))}
        </DataTable>
      )}
      <nav aria-label="Pages of saved cards" class="pager">
        {after !== undefined && <a href={href(base)}>First page</a>}
        {page.data?.next && <a href={href(base, { after: page.data.next })}>Next page</a>}
      </nav>
    </Page>
  );
}
