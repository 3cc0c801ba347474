/**
 * The back office's views (server/backoffice) are what the contract (shared/contract/admin-views.ts)
 * says the admin API answers: each builder's type fits its schema's type (checked by the compiler,
 * `npx tsc`), and what it builds parses (checked here). openapi.test.ts parses every admin
 * example's real answer with the schema its route names.
 */
import { describe, expect, expectTypeOf, it } from 'vitest';
import {
  type AccessTokenView,
  type AdminChannel,
  type AdminMerchant,
  type AdminUser,
  type AuditEntryView,
  adminChannel,
  adminMerchant,
  type ClockView,
  type ConnectorCheck,
  type ConnectorSetupView,
  type ConnectorView,
  connectorView,
  type DeliveryView,
  type PaymentRow,
  type Remaining,
  type SettledAccount,
  type WebhookView,
} from '../../shared/contract';
import type { ConnectorSetup } from '../backoffice/channels/connector';
import type { ConnectionCheck } from '../backoffice/channels/connector-check';
import type { ConnectorView as BackofficeConnectorView, ChannelView } from '../backoffice/channels/settings';
import { channelView, connectorView as toConnectorView } from '../backoffice/channels/settings';
import type { ClockView as BackofficeClockView } from '../backoffice/clock/moves';
import { type MerchantView, merchantView } from '../backoffice/merchants/merchants';
import type { paymentRow } from '../backoffice/payments/payment-list';
import type { Remaining as BackofficeRemaining } from '../backoffice/payments/remaining';
import type { SettledAccountView } from '../backoffice/settlement/runs';
import type { TokenView } from '../backoffice/tokens/tokens';
import type { UserView } from '../backoffice/users/accounts';
import type {
  DeliveryView as BackofficeDeliveryView,
  WebhookView as BackofficeWebhookView,
} from '../backoffice/webhooks/webhooks';
import type { StoredAuditEntry } from '../storage/admin-users/store';
import { openApiDocument } from './document';

/** A contract type as the back office builds it: read-only all the way down. */
type Shown<T> = T extends readonly (infer Item)[]
  ? readonly Shown<Item>[]
  : T extends object
    ? { readonly [K in keyof T]: Shown<T[K]> }
    : T;

describe("the back office's views fit the contract", () => {
  it('type by type (the compiler checks these)', () => {
    expectTypeOf<MerchantView>().toExtend<Shown<AdminMerchant>>();
    expectTypeOf<ChannelView>().toExtend<Shown<AdminChannel>>();
    expectTypeOf<BackofficeConnectorView>().toExtend<Shown<ConnectorView>>();
    expectTypeOf<TokenView>().toExtend<Shown<AccessTokenView>>();
    expectTypeOf<UserView>().toExtend<Shown<AdminUser>>();
    expectTypeOf<BackofficeWebhookView>().toExtend<Shown<WebhookView>>();
    expectTypeOf<Omit<BackofficeDeliveryView, 'notification'>>().toExtend<
      Shown<Omit<DeliveryView, 'notification'>>
    >();
    expectTypeOf<ReturnType<typeof paymentRow>>().toExtend<Shown<PaymentRow>>();
    expectTypeOf<SettledAccountView>().toExtend<Shown<SettledAccount>>();
    expectTypeOf<BackofficeClockView>().toExtend<Shown<ClockView>>();
    expectTypeOf<Omit<StoredAuditEntry, 'at'> & { at: string }>().toExtend<Shown<AuditEntryView>>();
    expectTypeOf<BackofficeRemaining>().toExtend<Shown<Remaining>>();
    expectTypeOf<ConnectorSetup>().toExtend<Shown<ConnectorSetupView>>();
    expectTypeOf<ConnectionCheck>().toExtend<Shown<ConnectorCheck>>();
  });

  it("names what the new admin answers carry, in the document's answer schemas", () => {
    const document = openApiDocument({ test: 'https://gateway.test' }) as {
      components: { schemas: unknown };
    };
    const schemas = document.components.schemas as Record<
      string,
      { properties?: Record<string, { properties?: Record<string, unknown>; required?: string[] }> }
    >;
    const story = schemas.AdminPaymentStory?.properties?.payment?.properties?.remaining as {
      required?: string[];
    };
    expect(story?.required).toEqual(['currency', 'capturable', 'refundable', 'reversible', 'chargeable']);
    expect(Object.keys(schemas.AdminDeliveryList?.properties ?? {})).toContain('next');
    expect(Object.keys(schemas.AdminChannel?.properties ?? {})).toEqual(
      expect.arrayContaining(['routes', 'connectorSetup']),
    );
    expect(Object.keys(schemas.AdminConnectorCheck?.properties ?? {})).toContain('connectorCheck');
    expect(Object.keys(schemas.AdminEnvironment?.properties ?? {})).toEqual(
      expect.arrayContaining(['environment', 'clock']),
    );
  });

  it('value by value: a merchant, a channel of each connector kind, a channel of routes', () => {
    const createdAt = new Date('2026-12-01T10:00:00Z');
    const id = '0123456789abcdef0123456789abcdef';
    expect(adminMerchant.parse(merchantView({ id, name: 'Shop', createdAt }))).toMatchObject({
      dispatching: false,
    });
    const base = { id, merchantId: id, name: 'Web', mode: 'TEST', testMode: 'EXTERNAL', createdAt } as const;
    const connectors = [
      { baseUrl: 'https://opp.example', entityId: 'e', accessToken: 'secret' },
      { kind: 'adyen', baseUrl: 'https://adyen.example', merchantAccount: 'Acct', apiKey: 'secret' },
      { kind: 'stripe', baseUrl: 'https://stripe.example', secretKey: 'secret' },
    ];
    for (const connector of connectors) {
      const shown = channelView({ ...base, settings: { connector } } as never);
      expect(adminChannel.parse(shown).connector).toEqual(
        connectorView.parse(toConnectorView(connector as never)),
      );
      // the contract names no credential: a view carrying one would not be what it says
      expect(JSON.stringify(shown)).not.toContain('secret');
    }
    const routes = connectors.map((connector, i) => ({ connector, currencies: ['EUR'], minAmount: i * 100 }));
    const routed = channelView({ ...base, settings: { routes } } as never);
    expect(adminChannel.parse(routed).routes).toEqual(routed.routes);
    expect(JSON.stringify(adminChannel.parse(routed))).not.toContain('secret');
  });
});
