/**
 * Two gateways of this project in a chain (issue 32, uncertain registrations): `gateway`'s channel
 * forwards through the opp connector to `upstream`, a test-kit gateway reached in process, as our
 * e2e harness and a chain of two deployed gateways do. Between them, a transport that loses the
 * next POST as scripted: its answer lost after the upstream processed it (`answer-lost`: what a
 * reset mid-answer does), or the request never delivered (`never-sent`: the upstream has nothing).
 * Either way the opp client sees an uncertain exchange (no error code it knows as "not connected"),
 * so the gateway keeps the outcome pending and its pending-payments worker, on `clock`, asks the
 * upstream's Query API.
 */
import { oppClient } from '../../connectors/opp/client';
import { type FakeClock, fakeClock } from '../clock';
import { type TestGateway, type TestMerchant, testGateway } from '../gateway';

export type ChainFault = 'none' | 'answer-lost' | 'never-sent';

export interface GatewayChain {
  readonly upstream: TestGateway;
  /** The gateway's account at the upstream. */
  readonly acquirer: TestMerchant;
  readonly gateway: TestGateway;
  /** A merchant of `gateway` whose one channel forwards to the upstream. */
  readonly merchant: TestMerchant;
  readonly clock: FakeClock;
  /** How the next POST between the two is lost. */
  lose(fault: ChainFault): void;
  /** Moves the clock and runs the pending-payments worker until `done` or `steps` runs. */
  settle(done: () => Promise<boolean>, steps?: number): Promise<void>;
  cleanup(): Promise<void>;
}

export async function gatewayChain(merchantSettings: Record<string, unknown> = {}): Promise<GatewayChain> {
  const upstream = await testGateway();
  const acquirer = await upstream.addMerchant({ channels: 1 });
  let next: ChainFault = 'none';
  const fetch = async (url: string, init: RequestInit): Promise<Response> => {
    if (init.method !== 'POST') return upstream.app.request(url, init);
    const fault = next;
    next = 'none';
    if (fault === 'never-sent') throw new Error('socket hang up');
    const answer = await upstream.app.request(url, init);
    if (fault === 'answer-lost') {
      await answer.arrayBuffer();
      throw new Error('other side closed');
    }
    return answer;
  };
  const clock = fakeClock();
  const gateway = await testGateway({
    clock,
    connector: oppClient({ fetch }),
    pending: { autoStart: false },
    notifier: { autoStart: false },
    webhooks: { autoStart: false },
    scheduler: { autoStart: false },
  });
  const merchant = await gateway.addMerchant({
    channels: 1,
    settings: {
      ...merchantSettings,
      connector: {
        baseUrl: 'http://upstream.test/',
        entityId: acquirer.entityId,
        accessToken: acquirer.token,
      },
    },
  });
  return {
    upstream,
    acquirer,
    gateway,
    merchant,
    clock,
    lose: (fault) => {
      next = fault;
    },
    async settle(done, steps = 20) {
      for (let i = 0; i < steps && !(await done()); i++) {
        clock.advance(60_000);
        await gateway.pending.runOnce();
      }
    },
    async cleanup() {
      await gateway.cleanup();
      await upstream.cleanup();
    },
  };
}
