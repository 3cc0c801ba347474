/**
 * GET /admin/v1/channels/{entityId}/circuits: the circuit breaker's state of each of a channel's
 * routes, as the dashboard's channel page shows it. A connector that keeps refusing the
 * connection is open; the others closed; a merchant user reads their own channel's only.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ConnectorRoute } from '../../../../shared/engine/core/model';
import type { Connector, ConnectorTarget } from '../../../../shared/engine/core/ports';
import { FAILURES } from '../../../connectors/routing/breaker';
import { ADMIN_TOKEN, addUser, adminCall, signIn } from '../../../test-kit/admin';
import { fakeClock } from '../../../test-kit/clock';
import { VISA_CARD_WITHOUT_HOLDER } from '../../../test-kit/fixtures/cards';
import { type TestGateway, testGateway } from '../../../test-kit/gateway';

/** down.test refuses every connection; the others charge. */
const connector: Connector = {
  async send(target: ConnectorTarget) {
    if (new URL(target.baseUrl).host === 'down.test') return { code: '999.999.999', technical: 'refused' };
    return { code: '000.100.110', id: 'c'.repeat(32) };
  },
};

const route = (host: string): ConnectorRoute => ({
  connector: { baseUrl: `http://${host}`, entityId: '0123456789abcdef0123456789abcdef', accessToken: 'tok' },
});

let gw: TestGateway;
beforeAll(async () => {
  gw = await testGateway({ clock: fakeClock(), connector, env: { GATEWAY_ADMIN_TOKEN: ADMIN_TOKEN } });
}, 60_000);
afterAll(() => gw?.cleanup());

const circuits = (entityId: string) =>
  adminCall(gw.app, 'GET', `/admin/v1/channels/${entityId}/circuits`, { token: ADMIN_TOKEN });

describe("a channel's circuits", () => {
  it('are closed until a route keeps failing, then that one is open', async () => {
    const m = await gw.addMerchant({
      channels: 1,
      settings: { routes: [route('down.test'), route('up.test')] },
    });
    expect((await circuits(m.entityId)).body.circuits).toEqual([
      { route: 0, kind: 'opp', state: 'closed' },
      { route: 1, kind: 'opp', state: 'closed' },
    ]);
    for (let i = 0; i < FAILURES; i++) {
      const paid = await gw.post(
        '/v1/payments',
        {
          entityId: m.entityId,
          ...VISA_CARD_WITHOUT_HOLDER,
          amount: '20.00',
          currency: 'EUR',
          paymentType: 'DB',
          testMode: 'EXTERNAL',
        },
        { token: m.token },
      );
      expect(paid.body.result.code, paid.text).toBe('000.100.112');
    }
    const res = await circuits(m.entityId);
    expect(res.status).toBe(200);
    expect(res.body.circuits).toEqual([
      { route: 0, kind: 'opp', state: 'open' },
      { route: 1, kind: 'opp', state: 'closed' },
    ]);
  });

  it('are none for a channel without routes, and another merchant’s channel is unknown', async () => {
    const m = await gw.addMerchant({ channels: 1 });
    const other = await gw.addMerchant({ channels: 1 });
    expect((await circuits(m.entityId)).body.circuits).toEqual([]);
    await addUser(gw, 'circuits-viewer', 'merchant-viewer', m.merchantId);
    const viewer = await signIn(gw.app, 'circuits-viewer');
    expect((await viewer.call('GET', `/admin/v1/channels/${m.entityId}/circuits`)).status).toBe(200);
    expect((await viewer.call('GET', `/admin/v1/channels/${other.entityId}/circuits`)).status).toBe(404);
  });
});
