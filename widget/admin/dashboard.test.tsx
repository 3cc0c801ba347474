// @vitest-environment happy-dom
/**
 * The dashboard in happy-dom against a scripted admin API (docs/admin-api.md): signing in (with a
 * TOTP code when asked), the CSRF token on state-changing requests, what a viewer is not offered,
 * amounts from decimal strings. The real API is exercised by the Playwright flows (e2e/flows/admin-*).
 */
import { render } from 'preact';
import { act } from 'preact/test-utils';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { App } from './App';
import { formatAmount } from './format';
import { navigate } from './router';
import { loadSession, user } from './state/session';
import type { User } from './types';

// happy-dom has no canvas to draw on: the charts' drawing (uPlot) is the flows' (screenshots.spec.ts)
vi.mock('uplot', () => ({
  default: class {
    destroy(): void {}
  },
}));

interface Call {
  readonly method: string;
  readonly path: string;
  readonly search: string;
  readonly headers: Record<string, string>;
  readonly body: unknown;
  readonly credentials: RequestCredentials | undefined;
}

type Handler = (call: Call) => { status: number; body: unknown } | undefined;

let calls: Call[];
let handler: Handler;

const reply = (status: number, body: Record<string, unknown> = {}) => ({
  status,
  body: {
    result: { code: status < 300 ? '000.000.000' : '800.900.300', description: `answer ${status}` },
    ...body,
  },
});

const ADMIN: User = {
  id: 'u1',
  username: 'demo-admin',
  role: 'merchant-admin',
  merchantId: 'm1',
  totpEnabled: false,
  disabled: false,
  createdAt: '2026-11-24T10:00:00Z',
};
const VIEWER: User = { ...ADMIN, id: 'u2', username: 'viewer', role: 'merchant-viewer' };

const PAYMENT = {
  id: 'p1',
  paymentType: 'DB',
  paymentBrand: 'VISA',
  amount: '92.00',
  currency: 'EUR',
  result: { code: '000.100.110', description: 'Request successfully processed' },
  status: 'success',
  merchantTransactionId: 'order-1',
  createdAt: '2026-11-24T10:00:00Z',
  entityId: 'c1',
};

beforeEach(() => {
  calls = [];
  handler = () => undefined;
  document.body.innerHTML = '<div id="app"></div>';
  vi.stubGlobal('fetch', async (url: string, init: RequestInit = {}) => {
    const call: Call = {
      method: init.method ?? 'GET',
      path: new URL(url, 'http://gw.test').pathname.replace('/admin/v1', ''),
      search: new URL(url, 'http://gw.test').search,
      headers: { ...(init.headers as Record<string, string>) },
      body: init.body === undefined ? undefined : JSON.parse(String(init.body)),
      credentials: init.credentials,
    };
    calls.push(call);
    const answer = handler(call) ?? reply(404);
    return new Response(JSON.stringify(answer.body), {
      status: answer.status,
      headers: { 'Content-Type': 'application/json' },
    });
  });
});
afterEach(() => {
  render(null, document.getElementById('app')!);
  window.location.hash = '';
  vi.unstubAllGlobals();
  user.value = undefined;
});

const root = () => document.getElementById('app')!;
const settle = async () => {
  for (let i = 0; i < 5; i++) await act(async () => new Promise((r) => setTimeout(r, 0)));
};
const byLabel = (text: string) => {
  const label = [...root().querySelectorAll('label')].find((l) => l.textContent === text);
  if (label === undefined) throw new Error(`no field labelled ${text}`);
  return document.getElementById(label.htmlFor) as HTMLInputElement;
};
const type = (text: string, value: string) =>
  act(() => {
    const input = byLabel(text);
    input.value = value;
    input.dispatchEvent(new Event('input', { bubbles: true }));
  });
const button = (text: string) =>
  [...root().querySelectorAll('button')].find((b) => b.textContent?.trim() === text) as
    | HTMLButtonElement
    | undefined;

async function start(): Promise<void> {
  await act(async () => {
    render(<App />, root());
  });
  await act(() => loadSession());
  await settle();
}

describe('the dashboard', () => {
  it('signs in with Username and Password, then asks for the TOTP code when the API wants one', async () => {
    handler = ({ method, path, body }) => {
      if (path === '/session' && method === 'GET') return reply(401);
      if (path === '/session' && method === 'POST') {
        const { totp } = body as { totp?: string };
        if (totp === undefined) return reply(401, { totpRequired: true });
        return totp === '123456' ? reply(200, { user: ADMIN, csrfToken: 'csrf-1' }) : reply(401);
      }
      if (path === '/merchants/m1') return reply(200, { id: 'm1', name: 'Demo', createdAt: ADMIN.createdAt });
      if (path.startsWith('/merchants/m1/')) return reply(200, { channels: [], tokens: [] });
      return undefined;
    };
    await start();
    expect(root().querySelector('h1')?.textContent).toBe('Sign in');
    await type('Username', 'demo-admin');
    await type('Password', 'a long password');
    await act(async () => button('Sign in')!.click());
    await settle();
    expect(calls.at(-1)!.body).toEqual({ username: 'demo-admin', password: 'a long password' });
    expect(calls.at(-1)!.credentials).toBe('same-origin');
    await type('Authentication code', '123456');
    await act(async () => button('Sign in')!.click());
    await settle();
    expect(
      calls.find((c) => c.method === 'POST' && (c.body as { totp?: string }).totp === '123456'),
    ).toBeDefined();
    expect(user.value?.username).toBe('demo-admin');
    expect(root().textContent).toContain('Sign out');
  });

  it('shows nothing but the authenticator set-up while the gateway requires one the user lacks', async () => {
    handler = ({ method, path, body }) => {
      if (path === '/session' && method === 'GET')
        return reply(200, { user: ADMIN, csrfToken: 'csrf-2', totpSetupRequired: true });
      if (path === '/session/totp' && method === 'POST')
        return (body as { password?: string }).password === 'a long password'
          ? reply(200, { secret: 'JBSWY3DPEHPK3PXP', otpauthUrl: 'otpauth://totp/x?secret=JBSWY3DPEHPK3PXP' })
          : reply(400);
      if (path === '/session/totp/confirm') return reply(200, { user: { ...ADMIN, totpEnabled: true } });
      if (path === '/merchants/m1') return reply(200, { id: 'm1', name: 'Demo', createdAt: ADMIN.createdAt });
      if (path.startsWith('/merchants/m1/')) return reply(200, { channels: [], tokens: [] });
      return undefined;
    };
    await start();
    expect(root().querySelector('h1')?.textContent).toBe('Set up two-step sign-in');
    expect(calls.some((c) => c.path.startsWith('/merchants'))).toBe(false);
    await type('Current password', 'a long password');
    await act(async () => button('Set up an authenticator')!.click());
    await settle();
    expect(root().querySelector('code.secret')?.textContent).toBe('JBSWY3DPEHPK3PXP');
    await type('Code from the app', '123456');
    await act(async () => button('Confirm')!.click());
    await settle();
    expect(root().textContent).toContain('Sign out');
  });

  it('lands on the day’s figures: a merchant user’s own, an operator’s for every merchant or the one picked', async () => {
    const OPERATOR: User = { ...ADMIN, id: 'u0', username: 'op', role: 'operator', merchantId: null };
    const hours = Array.from({ length: 24 }, (_, hour) => ({
      hour,
      payments: 0,
      success: 0,
      declined: 0,
      rejected: 0,
      pending: 0,
    }));
    const figures = (merchantId: string | null) => ({
      figures: {
        day: '2026-12-02',
        merchantId,
        payments: 1,
        success: 1,
        declined: 0,
        rejected: 0,
        pending: 0,
        successRate: 1,
        declineRate: 0,
        volume: [{ currency: 'EUR', amount: '12.34', hours: Array.from({ length: 24 }, () => '0.00') }],
        hours,
        brands: [
          {
            brand: 'VISA',
            payments: 1,
            success: 1,
            declined: 0,
            rejected: 0,
            pending: 0,
            successRate: 1,
            declineRate: 0,
            volume: [{ currency: 'EUR', amount: '12.34' }],
          },
        ],
      },
    });
    for (const who of [ADMIN, OPERATOR]) {
      calls = [];
      handler = ({ method, path, search }) => {
        if (path === '/session' && method === 'GET') return reply(200, { user: who, csrfToken: 'c' });
        if (path === '/figures') return reply(200, figures(new URLSearchParams(search).get('merchantId')));
        if (path === '/merchants')
          return reply(200, { merchants: [{ id: 'm2', name: 'Second shop', createdAt: ADMIN.createdAt }] });
        return undefined;
      };
      await start();
      expect(root().querySelector('h1')?.textContent, who.role).toBe("Today's figures");
      expect(root().textContent).toContain('VISA');
      const nav = [...root().querySelectorAll('nav[aria-label=Main] a')].map((a) => a.getAttribute('href'));
      const read = calls.filter((c) => c.path === '/figures');
      if (who === ADMIN) {
        // their own merchant (the API scopes it), no merchant to pick, their merchant one click away
        expect(read.map((c) => c.search)).toEqual(['']);
        expect(() => byLabel('Merchant')).toThrow();
        expect(nav).toContain('#/merchants/m1');
      } else {
        expect(nav).toContain('#/merchants');
        const pick = byLabel('Merchant') as unknown as HTMLSelectElement;
        expect([...pick.options].map((o) => o.textContent)).toEqual(['All merchants', 'Second shop']);
        await act(async () => {
          pick.value = 'm2';
          pick.dispatchEvent(new Event('change', { bubbles: true }));
        });
        await settle();
        expect(calls.filter((c) => c.path === '/figures').at(-1)?.search).toBe('?merchantId=m2');
        // the pick is in the location (a reload or a link keeps it), and the merchant one click away
        expect(window.location.hash).toBe('#/?merchantId=m2');
        expect(root().querySelector('a[href="#/merchants/m2"]')?.textContent).toContain('Second shop');
      }
      render(null, root());
      user.value = undefined;
      window.location.hash = '';
    }
  });

  it('reads a date range in UTC, the time base of every date it shows, whatever the browser’s zone', async () => {
    const zone = process.env.TZ;
    process.env.TZ = 'America/New_York';
    try {
      handler = ({ method, path }) => {
        if (path === '/session' && method === 'GET') return reply(200, { user: ADMIN, csrfToken: 'c' });
        if (path === '/merchants/m1/payments') return reply(200, { payments: [], next: null });
        return undefined;
      };
      await start();
      await act(async () => navigate('/merchants/m1/payments', { from: '2026-12-01', to: '2026-12-01' }));
      await settle();
      const read = calls.filter((c) => c.path === '/merchants/m1/payments').at(-1);
      const asked = new URLSearchParams(read?.search);
      expect(asked.get('from')).toBe('2026-12-01T00:00:00.000Z');
      expect(asked.get('to')).toBe('2026-12-02T00:00:00.000Z');
      expect(byLabel('From date (UTC)').value).toBe('2026-12-01');
    } finally {
      if (zone === undefined) delete process.env.TZ;
      else process.env.TZ = zone;
    }
  });

  it('sends the session’s CSRF token on state-changing requests only', async () => {
    handler = ({ method, path }) => {
      if (path === '/session' && method === 'GET') return reply(200, { user: ADMIN, csrfToken: 'csrf-7' });
      if (path === '/session' && method === 'DELETE') return reply(200);
      if (path === '/merchants/m1') return reply(200, { id: 'm1', name: 'Demo', createdAt: ADMIN.createdAt });
      if (path.startsWith('/merchants/m1/')) return reply(200, { channels: [], tokens: [] });
      return undefined;
    };
    await start();
    const reads = calls.filter((c) => c.method === 'GET');
    expect(reads.length).toBeGreaterThan(1);
    for (const read of reads) expect(read.headers['X-CSRF-Token']).toBeUndefined();
    await act(async () => button('Sign out')!.click());
    await settle();
    const signOut = calls.find((c) => c.method === 'DELETE')!;
    expect(signOut.headers['X-CSRF-Token']).toBe('csrf-7');
    expect(root().querySelector('h1')?.textContent).toBe('Sign in');
  });

  it('offers a refund to an admin, and none to a viewer', async () => {
    for (const [who, offered] of [
      [ADMIN, true],
      [VIEWER, false],
    ] as const) {
      handler = ({ method, path }) => {
        if (path === '/session' && method === 'GET') return reply(200, { user: who, csrfToken: 'c' });
        if (path === '/merchants/m1/payments/p1')
          return reply(200, {
            payment: PAYMENT,
            related: [],
            threeDSecure: null,
            risk: null,
            deliveries: [],
            checkout: null,
          });
        if (path === '/channels/c1')
          return reply(200, { entityId: 'c1', merchantId: 'm1', mode: 'TEST', environment: 'test' });
        if (path.startsWith('/merchants/m1'))
          return reply(200, { id: 'm1', name: 'Demo', channels: [], tokens: [] });
        return undefined;
      };
      await start();
      await act(async () => navigate('/merchants/m1/payments/p1'));
      await settle();
      expect(root().querySelector('h1')?.textContent).toBe('Payment p1');
      expect(button('Refund') !== undefined, who.role).toBe(offered);
      expect(button('Book a chargeback') !== undefined, who.role).toBe(offered);
      render(null, root());
      user.value = undefined;
    }
  });

  it('shows each field the API refused (result.parameterErrors) beside its field', async () => {
    const OPERATOR: User = { ...ADMIN, id: 'u0', username: 'op', role: 'operator', merchantId: null };
    handler = ({ method, path }) => {
      if (path === '/session' && method === 'GET') return reply(200, { user: OPERATOR, csrfToken: 'c' });
      if (path === '/merchants' && method === 'GET') return reply(200, { merchants: [] });
      if (path === '/merchants' && method === 'POST') {
        return {
          status: 400,
          body: {
            result: {
              code: '200.300.404',
              description: 'invalid or missing parameter',
              parameterErrors: [{ name: 'name', value: '', message: 'is required: 1 to 100 characters' }],
            },
          },
        };
      }
      return undefined;
    };
    await start();
    await act(async () => navigate('/merchants'));
    await settle();
    await act(async () => button('Create merchant')!.click());
    await settle();
    const field = byLabel('Merchant name');
    expect(field.getAttribute('aria-invalid')).toBe('true');
    const described = document.getElementById(field.getAttribute('aria-describedby')!);
    expect(described?.textContent).toBe('is required: 1 to 100 characters');
    expect(root().querySelector('[role=alert]')?.textContent).toContain('invalid or missing parameter');
  });

  it('sends the one-click CVV setting with a channel’s change, checked as the channel has it', async () => {
    const OPERATOR: User = { ...ADMIN, id: 'u0', username: 'op', role: 'operator', merchantId: null };
    const CHANNEL = {
      entityId: 'c1',
      merchantId: 'm1',
      name: 'Web',
      mode: 'TEST',
      brands: null,
      currencies: null,
      threeDSecure: false,
      throttlePerMinute: null,
      connector: null,
      registrationsRequireCvv: false,
    };
    handler = ({ method, path }) => {
      if (path === '/session' && method === 'GET') return reply(200, { user: OPERATOR, csrfToken: 'c' });
      if (path === '/channels/c1' && method === 'GET') return reply(200, CHANNEL);
      if (path === '/channels/c1' && method === 'PATCH') return reply(200, CHANNEL);
      if (path.startsWith('/channels/c1/risk-rules')) return reply(200, { rules: null });
      if (path === '/merchants/m1') return reply(200, { id: 'm1', name: 'Shop', dispatching: false });
      return undefined;
    };
    await start();
    await act(async () => navigate('/channels/c1'));
    await settle();
    const box = byLabel('Ask for the CVV of a stored card (one-click)');
    expect(box.checked).toBe(false);
    await act(async () => box.click());
    await act(async () => button('Save channel')!.click());
    await settle();
    const sent = calls.find((c) => c.method === 'PATCH' && c.path === '/channels/c1');
    expect(sent?.body).toMatchObject({ registrationsRequireCvv: true });
  });

  it('lets an operator move a saved card to another route of its channel, asked first, answered in words', async () => {
    const OPERATOR: User = { ...ADMIN, id: 'u0', username: 'op', role: 'operator', merchantId: null };
    const opp = (entityId: string) => ({ connector: { baseUrl: 'https://acquirer.test', entityId } });
    const CARD = { id: 'r1', entityId: 'c1', paymentBrand: 'VISA', bin: '420000', last4: '0000' };
    const moves: unknown[] = [];
    for (const who of [ADMIN, OPERATOR]) {
      handler = ({ method, path, body }) => {
        if (path === '/session' && method === 'GET') return reply(200, { user: who, csrfToken: 'c' });
        if (path === '/merchants/m1/channels')
          return reply(200, {
            channels: [{ entityId: 'c1', name: 'Web', mode: 'TEST', routes: [opp('a'), opp('b')] }],
          });
        if (path === '/merchants/m1/registrations')
          return reply(200, {
            registrations: [{ ...CARD, status: 'active', createdAt: ADMIN.createdAt }],
            next: null,
          });
        if (path === '/merchants/m1/registrations/moves' && method === 'POST') {
          moves.push(body);
          if (moves.length === 1)
            return reply(200, { moved: [{ id: 'r1', route: 1, kind: 'opp' }], refused: [] });
          return {
            status: 400,
            body: {
              result: {
                code: '200.300.404',
                description: 'registration r1 cannot move to route 1: route 1 holds it already',
                parameterErrors: [{ name: 'route', value: '1', message: 'route 1 holds it already' }],
              },
            },
          };
        }
        if (path.startsWith('/merchants/m1')) return reply(200, { id: 'm1', name: 'Shop' });
        return undefined;
      };
      await start();
      await act(async () => navigate('/merchants/m1/registrations'));
      await settle();
      expect(root().querySelector('h1')?.textContent).toBe('Saved cards');
      expect(button('Move to route') !== undefined, who.role).toBe(who === OPERATOR);
      if (who === ADMIN) {
        render(null, root());
        user.value = undefined;
      }
    }
    for (const round of [1, 2]) {
      await act(async () => button('Move to route')!.click());
      await settle();
      const dialog = root().querySelector('dialog[open]')!;
      // the route chosen last stays chosen
      expect(dialog.textContent).toContain(`Saved card r1 moves to route ${round}`);
      await act(() => {
        const route = byLabel('Route') as unknown as HTMLSelectElement;
        route.value = '1';
        route.dispatchEvent(new Event('change', { bubbles: true }));
      });
      expect(dialog.textContent).toContain('moves to route 2 of its channel');
      expect(dialog.textContent).toContain('Web: opp at https://acquirer.test, entity b');
      await act(async () => button('Move')!.click());
      await settle();
      expect(moves.at(-1)).toEqual({ registrationIds: ['r1'], route: 1 });
      if (round === 1)
        expect(root().querySelector('[role=status]')?.textContent).toBe('Saved card r1 moved to route 2.');
      else
        expect(dialog.querySelector('[role=alert]')?.textContent).toBe(
          'Saved card r1 cannot move to route 2: route 2 holds it already.',
        );
    }
  });

  it('formats amounts from decimal strings in the browser’s locale, never through a float', () => {
    expect(formatAmount('92.00', 'EUR')).toMatch(/92[.,]00/);
    // a float would round this
    expect(formatAmount('12345678901234567.89', 'EUR')).toMatch(/12.345.678.901.234.567.89/);
    expect(formatAmount('not a number', 'EUR')).toBe('not a number EUR');
  });
});
