/**
 * A merchant's saved cards (registrations): newest first in keyset pages, the card as the API
 * answers it and the route holding it (numbered from 1, as the channel's page lists them); a
 * merchant admin or operator deletes one after saying what deleting means; an operator moves
 * one, or all, to another of their channel's routes (components/RegistrationMove).
 */
import { useEffect } from 'preact/hooks';
import { del, get, query, seg } from '../api';
import { ActionButton } from '../components/ActionButton';
import { ActionMessages } from '../components/ActionMessages';
import { Loading, Status } from '../components/Alert';
import { DataTable } from '../components/DataTable';
import { Page } from '../components/Page';
import { MoveTo } from '../components/RegistrationMove';
import { useAction } from '../components/useAction';
import { useLoad } from '../components/useLoad';
import { formatDate } from '../format';
import { href, route } from '../router';
import { environment } from '../state/environment';
import { openMerchant } from '../state/merchant';
import { canChange, isOperator } from '../state/session';
import type { Channel, SavedCard } from '../types';

const PAGE_SIZE = 25;

const cardOf = (r: SavedCard) =>
  r.last4 === null
    ? '—'
    : `${r.bin ?? ''}•••• ${r.last4}${r.expiryMonth ? ` (${r.expiryMonth}/${r.expiryYear})` : ''}`;

/** The route holding it, numbered from 1 as the channel's page lists them, and its connector's kind. */
const routeOf = ({ route }: SavedCard) => (route ? `${route.index + 1} (${route.kind})` : '—');

const COLUMNS = ['Created', 'Id', 'Brand', 'Card', 'Holder', 'Route', 'Status'];

export function Registrations({ merchantId }: { merchantId: string }) {
  useEffect(() => openMerchant(merchantId), [merchantId]);
  const after = route.value.query.get('after') ?? undefined;
  const move = useAction();
  const page = useLoad(
    () =>
      get<{ registrations: SavedCard[]; next: string | null }>(
        `/merchants/${seg(merchantId)}/registrations${query({ limit: PAGE_SIZE, after })}`,
      ),
    // a move's answer loads the page again: the table shows the route it went to
    [merchantId, after, move.done],
  );
  const remove = useAction();
  // the routes to move to are the channels' (operators only: the API refuses the others)
  const channels = useLoad(
    async () =>
      isOperator.value
        ? (await get<{ channels: Channel[] }>(`/merchants/${seg(merchantId)}/channels`)).channels
        : [],
    [merchantId, isOperator.value],
  );
  // the environment's channels: a move is the address's environment's
  const live = environment.value?.environment === 'live';
  const ours = (channels.data ?? []).filter((c) => (c.mode === 'LIVE') === live);
  const base = `/merchants/${encodeURIComponent(merchantId)}/registrations`;
  return (
    <Page title="Saved cards">
      <p class="muted">
        Cards and other payment details shoppers let this merchant keep (registrations), newest first.
      </p>
      <ActionMessages action={remove} />
      {isOperator.value && <MoveTo merchantId={merchantId} channels={ours} action={move} />}
      {move.done !== undefined && <Status>{move.done}</Status>}
      <Loading data={page.data} error={page.error} />
      {page.data && page.data.registrations.length === 0 && <p role="status">No saved cards.</p>}
      {page.data && page.data.registrations.length > 0 && (
        <DataTable label="Saved cards, newest first" columns={[...COLUMNS, canChange.value && 'Action']}>
          {page.data.registrations.map((r) => (
            <tr key={r.id}>
              <td>{formatDate(r.createdAt)}</td>
              <td>
                <code>{r.id}</code>
              </td>
              <td>{r.paymentBrand}</td>
              <td>{cardOf(r)}</td>
              <td>{r.holder ?? '—'}</td>
              <td>{routeOf(r)}</td>
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
                    <div class="actions">
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
                      {isOperator.value && (
                        <MoveTo
                          merchantId={merchantId}
                          id={r.id}
                          channels={ours.filter((c) => c.entityId === r.entityId)}
                          action={move}
                        />
                      )}
                    </div>
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
