/**
 * One search box for the back office: the text typed is looked up as each thing it could name,
 * every lookup an index's (storage/search/store.ts): a payment by id or merchantTransactionId, a
 * registration id, a checkout id, a merchant by id or the start of its name. An operator searches
 * every merchant; a merchant's user only their own (and never finds merchants). Only things of
 * the address's environment are found. Each hit says where its page is.
 */
import type { SearchHit } from '../../../shared/contract';
import { type Environment, environmentOf } from '../../../shared/engine/core/model';
import type { GatewayStore } from '../../storage/kysely-store';
import { invalid } from '../errors';
import { displayAmount } from '../payments/payment-list';
import type { AdminPrincipal } from '../users/principal';

const MAX_TEXT = 255;

type SearchStore = Pick<
  GatewayStore,
  'findPayments' | 'findRegistration' | 'findCheckout' | 'findMerchants' | 'listMerchants' | 'getChannel'
>;

export async function searchRecords(
  store: SearchStore,
  principal: Pick<AdminPrincipal, 'merchantId'>,
  environment: Environment,
  typed: string | undefined,
): Promise<SearchHit[]> {
  const text = (typed ?? '').trim();
  if (text === '' || text.length > MAX_TEXT)
    throw invalid([{ name: 'q', value: typed ?? null, message: `must be 1 to ${MAX_TEXT} characters` }]);
  const own = principal.merchantId;
  const merchantIds = own === null ? (await store.listMerchants()).map((m) => m.id) : [own];
  const ours = async (merchantId: string, channelId: string): Promise<boolean> => {
    if (own !== null && own !== merchantId) return false;
    const channel = await store.getChannel(channelId);
    return channel !== undefined && environmentOf(channel.mode) === environment;
  };
  const [payments, registration, checkout, merchants] = await Promise.all([
    store.findPayments(text, merchantIds),
    store.findRegistration(text),
    store.findCheckout(text),
    own === null ? store.findMerchants(text) : Promise.resolve([]),
  ]);
  const hits: SearchHit[] = [];
  for (const p of payments)
    if (await ours(p.merchantId, p.channelId))
      hits.push({
        kind: 'payment',
        id: p.id,
        merchantId: p.merchantId,
        label:
          `${p.paymentType} ${displayAmount(p) ?? ''} ${p.currency ?? ''} ${p.merchantTransactionId ?? ''}`
            .replace(/\s+/g, ' ')
            .trim(),
        paymentId: p.id,
      });
  if (registration !== undefined && (await ours(registration.merchantId, registration.channelId)))
    hits.push({
      kind: 'registration',
      id: registration.id,
      merchantId: registration.merchantId,
      label: `${registration.paymentBrand}${registration.card ? ` •••• ${registration.card.last4Digits}` : ''}${
        registration.deletedAt === null ? '' : ' (deleted)'
      }`,
      paymentId: null,
    });
  if (checkout !== undefined && (await ours(checkout.merchantId, checkout.channelId)))
    hits.push({
      kind: 'checkout',
      id: checkout.id,
      merchantId: checkout.merchantId,
      label: `${checkout.kind} checkout${checkout.completedAt === null ? '' : ', completed'}`,
      paymentId: checkout.paymentId ?? null,
    });
  for (const m of merchants)
    hits.push({ kind: 'merchant', id: m.id, merchantId: m.id, label: m.name, paymentId: null });
  return hits;
}
