/**
 * The gateway process's operations surface: /healthz and /readyz on the public address and on the
 * metrics address (GATEWAY_METRICS_PORT), /metrics there only; and SIGTERM under a burst of
 * payments: the process drains and exits 0, no request is answered 5xx, and every payment that was
 * answered is there after a restart on the same data. Requests refused once it stopped accepting
 * (no answer at all) are fine: nothing was acknowledged for them.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { VISA_CARD_WITHOUT_HOLDER } from '../test-kit/fixtures/cards';
import { freePort } from '../test-kit/postgres';
import { readDemo, type SpawnedGateway, spawnGateway, stopAll } from '../test-kit/process';

const dirs: string[] = [];
afterAll(async () => {
  await stopAll();
  await Promise.all(dirs.splice(0).map((d) => rm(d, { recursive: true, force: true })));
}, 30_000);

// biome-ignore lint/suspicious/noExplicitAny: tests read arbitrary response fields
type Json = any;

describe('health, metrics address and graceful shutdown of the gateway process', () => {
  it('answers /healthz and /readyz on both addresses, /metrics on the metrics address only', async () => {
    const dataDir = await mkdtemp(join(tmpdir(), 'gateway-health-'));
    dirs.push(dataDir);
    const metricsPort = await freePort();
    const gw = await spawnGateway({ dataDir, env: { GATEWAY_METRICS_PORT: String(metricsPort) } });
    const metricsUrl = `http://127.0.0.1:${metricsPort}`;
    for (const base of [gw.baseUrl, metricsUrl]) {
      const alive = await fetch(`${base}/healthz`);
      expect(alive.status).toBe(200);
      const ready = await fetch(`${base}/readyz`);
      const report: Json = await ready.json();
      expect(ready.status, JSON.stringify(report)).toBe(200);
      expect(report).toMatchObject({
        status: 'ready',
        storage: 'reachable',
        pendingMigrations: [],
        draining: false,
      });
      expect(Object.values(report.workers)).toEqual(['running', 'running', 'running', 'running', 'running']);
    }
    const scraped = await fetch(`${metricsUrl}/metrics`);
    expect(scraped.status).toBe(200);
    const text = await scraped.text();
    expect(text).toContain('# TYPE gateway_http_requests_total counter');
    expect(text).toContain('gateway_worker_lag_seconds{worker="webhooks"}');
    expect((await fetch(`${gw.baseUrl}/metrics`)).status).toBe(404);
    expect(await gw.stop()).toEqual({ code: 0, signal: null });
  }, 60_000);

  it('refuses to start with a GATEWAY_METRICS_PORT that is not a port', async () => {
    const dataDir = await mkdtemp(join(tmpdir(), 'gateway-health-'));
    dirs.push(dataDir);
    await expect(spawnGateway({ dataDir, env: { GATEWAY_METRICS_PORT: 'nine' } })).rejects.toThrow(
      /GATEWAY_METRICS_PORT must be a TCP port/,
    );
  }, 60_000);

  it('drains on SIGTERM under load: no 5xx, exit 0, every answered payment there after restart', async () => {
    const TOTAL = 400;
    const IN_FLIGHT = 30;
    const SIGNAL_AFTER = 60;
    const dataDir = await mkdtemp(join(tmpdir(), 'gateway-sigterm-'));
    dirs.push(dataDir);
    const first = await spawnGateway({ dataDir });
    const demo = await readDemo(dataDir);
    const headers = {
      Authorization: `Bearer ${demo.accessToken}`,
      'Content-Type': 'application/x-www-form-urlencoded',
    };
    const body = new URLSearchParams({
      entityId: demo.entityId,
      amount: '10.00',
      currency: 'EUR',
      paymentType: 'DB',
      ...VISA_CARD_WITHOUT_HOLDER,
    }).toString();

    const answered: { status: number; text: string; body: Json }[] = [];
    let sent = 0;
    let refused = 0;
    let exit: Promise<unknown> | undefined;
    const client = async () => {
      while (sent < TOTAL) {
        sent++;
        let status: number;
        let text: string;
        try {
          const res = await fetch(`${first.baseUrl}/v1/payments`, { method: 'POST', headers, body });
          status = res.status;
          text = await res.text();
        } catch {
          // no answer: the listener was closed (refused, or an idle connection closed under it)
          refused++;
          if (exit !== undefined) return;
          continue;
        }
        answered.push({ status, text, body: JSON.parse(text) });
        if (exit === undefined && answered.length >= SIGNAL_AFTER) exit = first.kill('SIGTERM');
      }
    };
    await Promise.all(Array.from({ length: IN_FLIGHT }, client));
    expect(exit, 'the burst ended before SIGTERM').toBeDefined();
    expect(await exit, first.output()).toEqual({ code: 0, signal: null });

    for (const a of answered) expect(a.status, a.text).toBeLessThan(500);
    const acknowledged = answered.filter((a) => a.status === 200).map((a) => a.body.id as string);
    expect(acknowledged.length).toBeGreaterThanOrEqual(SIGNAL_AFTER);

    const second = await spawnGateway({ dataDir });
    const query = new URLSearchParams({ entityId: demo.entityId });
    for (const id of acknowledged) {
      const res = await fetch(`${second.baseUrl}/v1/payments/${id}?${query}`, { headers });
      expect(res.status, id).toBe(200);
    }
    console.info(
      `SIGTERM test: ${sent} sent, ${answered.length} answered (${acknowledged.length} payments), ${refused} refused`,
    );
    expect(await (second as SpawnedGateway).stop()).toEqual({ code: 0, signal: null });
  }, 120_000);
});
