/**
 * Velocity limits under concurrency: 50 payments of one card at the same moment must let exactly
 * the limit through (a count of 5; a volume of 25.00 in payments of 5.00), on one process (SQLite
 * and PostgreSQL) and on two gateway processes sharing one PostgreSQL. The check and the record of
 * a velocity key are one step: concurrent attempts never see the same count.
 */

import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RiskRules } from '../shared/risk';
import { VISA_CARD_WITHOUT_HOLDER } from './test-kit/fixtures/cards';
import { type TestGateway, testGateway } from './test-kit/gateway';
import { type PostgresCluster, postgresUnavailableReason, startPostgres } from './test-kit/postgres';
import {
  type DemoMerchantFile,
  readDemo,
  type SpawnedGateway,
  spawnGateway,
  stopAll,
} from './test-kit/process';

const BURST = 50;
const COUNT_RULES: RiskRules = { velocity: [{ per: 'card', windowSeconds: 3600, maxCount: 5 }] };
const VOLUME_RULES: RiskRules = {
  velocity: [{ per: 'card', windowSeconds: 3600, maxVolume: { EUR: 2500 } }],
};
const CASES = [
  { name: 'a count limit of 5', rules: COUNT_RULES, amount: '1.00', through: 5 },
  { name: 'a volume limit of 25.00 (payments of 5.00)', rules: VOLUME_RULES, amount: '5.00', through: 5 },
] as const;

const payment = (entityId: string, amount: string) => ({
  entityId,
  amount,
  currency: 'EUR',
  paymentType: 'DB',
  ...VISA_CARD_WITHOUT_HOLDER,
});

/** Answers of a burst: how many succeeded, how many the velocity rule rejected, and anything else. */
function tally(answers: readonly { status: number; code: string }[]) {
  const through = answers.filter((a) => a.status === 200).length;
  const rejected = answers.filter((a) => a.code.startsWith('800.120.')).length;
  return { through, rejected, other: answers.length - through - rejected };
}

const pgUnavailable = postgresUnavailableReason();
let cluster: PostgresCluster | undefined;
afterAll(async () => {
  await stopAll();
  await cluster?.stop();
}, 60_000);
const postgres = async (): Promise<PostgresCluster> => {
  cluster ??= await startPostgres();
  return cluster;
};

for (const database of ['SQLite', 'PostgreSQL'] as const) {
  describe.skipIf(database === 'PostgreSQL' && pgUnavailable !== undefined)(
    `velocity limits, ${BURST} payments at once on one process (${database})`,
    () => {
      let gw: TestGateway;
      beforeAll(async () => {
        gw = await testGateway({
          ...(database === 'PostgreSQL' ? { databaseUrl: (await postgres()).url } : {}),
          webhooks: { autoStart: false },
          notifier: { autoStart: false },
          pending: { autoStart: false },
        });
      }, 60_000);
      afterAll(() => gw?.cleanup());

      for (const c of CASES) {
        it(`${c.name} lets exactly ${c.through} through`, async () => {
          const m = await gw.addMerchant({ channels: 1, settings: { risk: c.rules } });
          const answers = await Promise.all(
            Array.from({ length: BURST }, async () => {
              const res = await gw.post('/v1/payments', payment(m.entityId, c.amount), { token: m.token });
              return { status: res.status, code: String(res.body?.result?.code) };
            }),
          );
          const counted = tally(answers);
          console.info(`velocity race (${database}, one process, ${c.name}): ${JSON.stringify(counted)}`);
          expect(counted).toEqual({ through: c.through, rejected: BURST - c.through, other: 0 });
        });
      }
    },
  );
}

describe.skipIf(pgUnavailable !== undefined)(
  `velocity limits, ${BURST} payments at once on two processes on one PostgreSQL`,
  () => {
    let url: string;
    let dataDir: string;
    let demo: DemoMerchantFile;

    beforeAll(async () => {
      // A database of its own: the demo merchant is created on an empty store only.
      const shared = new URL((await postgres()).url);
      const admin = new pg.Client({ connectionString: shared.toString() });
      await admin.connect();
      try {
        await admin.query('CREATE DATABASE velocity_two_processes');
      } finally {
        await admin.end();
      }
      shared.pathname = '/velocity_two_processes';
      url = shared.toString();
      dataDir = await mkdtemp(join(tmpdir(), 'gateway-velocity-'));
      // The first start migrates and creates the demo merchant.
      const first = await spawnGateway({ dataDir, databaseUrl: url });
      demo = await readDemo(dataDir);
      expect(await first.stop()).toEqual({ code: 0, signal: null });
    }, 120_000);
    afterAll(async () => {
      await stopAll();
      await rm(dataDir, { recursive: true, force: true });
    }, 30_000);

    /** The demo channel's rules, set in the database before the gateways start (they cache channels). */
    async function setRules(rules: RiskRules): Promise<void> {
      const client = new pg.Client({ connectionString: url });
      await client.connect();
      try {
        const { rows } = await client.query<{ settings: string }>(
          'SELECT settings FROM channels WHERE id = $1',
          [demo.entityId],
        );
        const settings = { ...JSON.parse(rows[0]!.settings), risk: rules };
        await client.query('UPDATE channels SET settings = $1 WHERE id = $2', [
          JSON.stringify(settings),
          demo.entityId,
        ]);
        // A fresh card history for each case.
        await client.query('DELETE FROM risk_events');
      } finally {
        await client.end();
      }
    }

    const pay = async (gw: SpawnedGateway, amount: string) => {
      const res = await fetch(`${gw.baseUrl}/v1/payments`, {
        method: 'POST',
        headers: {
          Authorization: `Bearer ${demo.accessToken}`,
          'Content-Type': 'application/x-www-form-urlencoded',
        },
        body: new URLSearchParams(payment(demo.entityId, amount)).toString(),
      });
      const body = (await res.json()) as { result: { code: string } };
      return { status: res.status, code: body.result.code };
    };

    for (const c of CASES) {
      it(`${c.name} lets exactly ${c.through} through`, async () => {
        await setRules(c.rules);
        const dirB = await mkdtemp(join(tmpdir(), 'gateway-velocity-b-'));
        try {
          const [a, b] = await Promise.all([
            spawnGateway({ dataDir, databaseUrl: url }),
            spawnGateway({ dataDir: dirB, databaseUrl: url }),
          ]);
          const answers = await Promise.all(
            Array.from({ length: BURST }, (_, i) => pay(i % 2 === 0 ? a : b, c.amount)),
          );
          await Promise.all([a.stop(), b.stop()]);
          const counted = tally(answers);
          console.info(`velocity race (PostgreSQL, two processes, ${c.name}): ${JSON.stringify(counted)}`);
          expect(counted).toEqual({ through: c.through, rejected: BURST - c.through, other: 0 });
        } finally {
          await rm(dirB, { recursive: true, force: true });
        }
      }, 60_000);
    }
  },
);
