/**
 * The developer default's users (never in production): on a store without any, a demo operator
 * and an admin of the demo merchant, with generated passwords printed by `npm start` and written
 * to `<dataDir>/demo-users.json` (mode 0600, beside demo-merchant.json) so the dashboard can be
 * opened at once. Production creates none: `gateway user create` makes the first.
 */
import { chmodSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Clock } from '../../../shared/engine/core/ports';
import type { Logger } from '../../security/logger';
import type { AdminRole } from '../../storage/admin-users/store';
import { type AccountStore, createUser } from './accounts';

export interface DemoUser {
  readonly username: string;
  readonly password: string;
  readonly role: AdminRole;
}

export const DEMO_USERS_FILE = 'demo-users.json';

export async function ensureDemoUsers(
  store: AccountStore & { listMerchants(): Promise<readonly { id: string }[]> },
  clock: Clock,
  dataDir: string,
  merchantId: string | undefined,
): Promise<DemoUser[] | undefined> {
  if ((await store.countAdminUsers()) > 0) return undefined;
  const merchant = merchantId ?? (await store.listMerchants())[0]?.id;
  const wanted = [
    { username: 'demo-operator', role: 'operator' as const },
    ...(merchant === undefined
      ? []
      : [{ username: 'demo-admin', role: 'merchant-admin' as const, merchantId: merchant }]),
  ];
  const users: DemoUser[] = [];
  for (const want of wanted) {
    const created = await createUser(store, clock, want);
    if (created.kind === 'created' && created.password !== undefined)
      users.push({ username: want.username, password: created.password, role: want.role });
  }
  const file = join(dataDir, DEMO_USERS_FILE);
  writeFileSync(file, `${JSON.stringify(users, null, 2)}\n`, { mode: 0o600 });
  // The mode applies to a new file only: one left from an earlier store keeps its own otherwise.
  chmodSync(file, 0o600);
  return users;
}

/**
 * What a developer's machine gets on a fresh store (never production): the demo merchant (made
 * by `demoMerchant`, server/gateway.ts) and the dashboard's demo users, each printed by main.ts
 * and kept in a 0600 file of the data folder.
 */
export async function developerDefaults<D extends { readonly merchantId: string; readonly entityId: string }>(
  deps: {
    readonly store: Parameters<typeof ensureDemoUsers>[0];
    readonly clock: Clock;
    readonly dataDir: string;
    readonly production: boolean;
    readonly logger: Pick<Logger, 'info'>;
  },
  demoMerchant: () => Promise<D | undefined>,
): Promise<{ demo: D | undefined; demoUsers: DemoUser[] | undefined }> {
  if (deps.production) return { demo: undefined, demoUsers: undefined };
  const demo = await demoMerchant();
  if (demo !== undefined)
    deps.logger.info('created demo merchant', { entityId: demo.entityId, file: 'demo-merchant.json' });
  const demoUsers = await ensureDemoUsers(deps.store, deps.clock, deps.dataDir, demo?.merchantId);
  if (demoUsers !== undefined)
    deps.logger.info('created demo users', {
      usernames: demoUsers.map((u) => u.username),
      file: DEMO_USERS_FILE,
    });
  return { demo, demoUsers };
}
