/**
 * The developer default's demo merchant (`npm start`, not production): on an empty store, one
 * merchant with a test channel (3-D Secure on, a test bank account for PREPAYMENT) and an access
 * token, beside the demo users.
 */
import { chmodSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { newId } from '../../../shared/engine/core/ids';
import type { ChannelStore, Clock, MerchantDirectory, TokenStore } from '../../../shared/engine/core/ports';
import { issueToken } from '../tokens/issue';

export interface DemoMerchant {
  readonly merchantId: string;
  readonly entityId: string;
  readonly accessToken: string;
  readonly baseUrl: string;
}

/**
 * The demo channel's own account, which PREPAYMENT's shoppers are told to transfer to (a channel
 * without one refuses the method, 600.200.201): the family's test IBAN and BIC (the operator's
 * DIRECTDEBIT_SEPA sample, facts §6.3), never a real merchant's.
 */
const DEMO_BANK_ACCOUNT = {
  holder: 'Demo Merchant',
  iban: 'DE23100000001234567890',
  bic: 'MARKDEF1100',
  country: 'DE',
} as const;

/**
 * On an empty store: a demo merchant with one test channel (3-D Secure on) and an access token,
 * written to `<dataDir>/demo-merchant.json` (mode 0600: it holds a credential) and returned once.
 */
export async function ensureDemoMerchant(
  store: MerchantDirectory & ChannelStore & TokenStore,
  clock: Clock,
  baseUrl: string,
  dataDir: string,
): Promise<DemoMerchant | undefined> {
  if ((await store.listMerchants()).length > 0) return undefined;
  const now = clock.now();
  const merchantId = newId();
  const entityId = newId();
  await store.insertMerchant({ id: merchantId, name: 'Demo Merchant', createdAt: now });
  await store.insertChannel({
    id: entityId,
    merchantId,
    name: 'Demo_Test_Channel',
    mode: 'TEST',
    settings: { threeDSecure: true, bankAccount: DEMO_BANK_ACCOUNT },
    createdAt: now,
  });
  const { accessToken } = await issueToken(store, { merchantId, channelIds: [], environment: 'test', now });
  const demo = { merchantId, entityId, accessToken, baseUrl };
  const file = join(dataDir, 'demo-merchant.json');
  writeFileSync(file, `${JSON.stringify(demo, null, 2)}\n`, { mode: 0o600 });
  // The mode applies to a new file only: one left from an earlier store keeps its own otherwise.
  chmodSync(file, 0o600);
  return demo;
}
