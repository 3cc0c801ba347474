/**
 * A merchant's recent API requests as the back office shows them: newest first, the last
 * `limit` (SHOWN by default, at most the RETAINED_API_REQUESTS the store keeps per merchant).
 */
import type { ApiRequestView } from '../../../shared/contract';
import { type ApiRequestRecord, RETAINED_API_REQUESTS } from '../../storage/api-requests/store';
import type { GatewayStore } from '../../storage/kysely-store';
import { invalid } from '../errors';
import { requireMerchant } from '../merchants/merchants';

export const SHOWN_API_REQUESTS = 100;

export const apiRequestView = (r: ApiRequestRecord): ApiRequestView => ({
  method: r.method,
  route: r.route,
  status: r.status,
  resultCode: r.resultCode,
  durationMs: r.durationMs,
  requestId: r.requestId,
  at: r.at.toISOString(),
});

export async function listApiRequests(
  store: Pick<GatewayStore, 'getMerchant' | 'listApiRequests'>,
  merchantId: string,
  limitText: string | undefined,
): Promise<ApiRequestView[]> {
  const merchant = await requireMerchant(store, merchantId);
  const text = limitText ?? String(SHOWN_API_REQUESTS);
  const limit = Number(text);
  if (!/^[0-9]{1,4}$/.test(text) || limit < 1 || limit > RETAINED_API_REQUESTS)
    throw invalid([{ name: 'limit', value: text, message: `must be 1 to ${RETAINED_API_REQUESTS}` }]);
  return (await store.listApiRequests(merchant.id, limit)).map(apiRequestView);
}
