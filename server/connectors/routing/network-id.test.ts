import { describe, expect, it } from 'vitest';
import type { Registration } from '../../../shared/engine/core/model';
import { heldBy, holding, tagOf } from './held';
import { networkTransactionIdOf } from './network-id';

const decision = (resultDetails: Record<string, string>) => ({
  code: '000.000.000',
  result: {},
  resultDetails,
});
const registration = (connectorRegistrationId: string) =>
  ({ details: { connectorRegistrationId } }) as unknown as Registration;

describe('the network transaction id, whichever connector answered it', () => {
  it('reads Adyen’s, Stripe’s and the family’s names, and nothing that could break the tag', () => {
    expect(networkTransactionIdOf({ networkTxReference: '777718270854480' })).toBe('777718270854480');
    expect(networkTransactionIdOf({ NetworkTransactionId: 'MCC0123456' })).toBe('MCC0123456');
    expect(networkTransactionIdOf({ CardholderInitiatedTransactionID: '702448203019594' })).toBe(
      '702448203019594',
    );
    expect(networkTransactionIdOf({ networkTxReference: 'a:b' })).toBeUndefined();
    expect(networkTransactionIdOf({ networkTxReference: 'x'.repeat(65) })).toBeUndefined();
    expect(networkTransactionIdOf({ authCode: '123456' })).toBeUndefined();
  });

  it('is kept in the holding route’s tag with the registration, and read back', () => {
    const tagged = holding(
      decision({ ConnectorRegistrationID: 'PSP1:shopper-1', networkTxReference: '777718270854480' }),
      { index: 1, kind: 'adyen' },
    );
    const id = tagged.resultDetails.ConnectorRegistrationID as string;
    expect(id).toBe('adyen@1~777718270854480:PSP1:shopper-1');
    expect(heldBy(registration(id))).toEqual({
      route: { index: 1, kind: 'adyen' },
      theirId: 'PSP1:shopper-1',
      networkTransactionId: '777718270854480',
    });
    // without one, the tag as before; a moved registration has no id there
    expect(heldBy(registration('stripe@0:cus_1:pm_1'))).toEqual({
      route: { index: 0, kind: 'stripe' },
      theirId: 'cus_1:pm_1',
    });
    const moved = tagOf({ route: { index: 2, kind: 'opp' }, theirId: '', networkTransactionId: 'N1' });
    expect(heldBy(registration(moved))).toEqual({
      route: { index: 2, kind: 'opp' },
      theirId: '',
      networkTransactionId: 'N1',
    });
    // an id stored before routes is no tag
    expect(heldBy(registration('8a8294174b7ecb28014b9699220015ca'))).toBeUndefined();
  });
});

describe('the kinds a registration may move to', () => {
  it('are those whose connector takes a card on file', async () => {
    const { CONNECTOR_KINDS } = await import('../registry');
    const { CARD_ON_FILE_KINDS } = await import('./move');
    const clients = { opp: { send: async () => ({ code: '000.000.000' }) }, fetch: globalThis.fetch };
    const settings = {
      baseUrl: 'http://127.0.0.1:9',
      apiKey: 'k',
      merchantAccount: 'M',
      entityId: 'e',
      accessToken: 't',
    };
    for (const [kind, build] of Object.entries(CONNECTOR_KINDS)) {
      const contract = (build as (c: unknown, s: unknown) => { takesCardOnFile?: boolean })(
        clients,
        settings,
      );
      expect(contract.takesCardOnFile === true, kind).toBe(CARD_ON_FILE_KINDS.includes(kind));
    }
  });
});

describe('what a repeat elsewhere sends, and what never goes', () => {
  const card = {
    bin: '411111',
    last4Digits: '1142',
    expiryMonth: '03',
    expiryYear: '2030',
    encryptedNumber: 'sealed',
  };
  const reg = (details: Record<string, unknown>, withCard = true) =>
    ({
      id: 'r',
      paymentBrand: 'VISA',
      ...(withCard ? { card } : {}),
      details: { connectorRegistrationId: 'adyen@0~777718270854480:PSP:shopper', ...details },
    }) as unknown as Registration;
  const mit = {
    amount: '4.00',
    currency: 'EUR',
    paymentType: 'DB',
    standingInstruction: { source: 'MIT', type: 'RECURRING' },
  };
  const order = (registration: Registration, request: object = mit) =>
    ({
      channel: {},
      registration,
      request,
      decide: { instrument: { kind: 'other' } },
      now: new Date(),
    }) as never;
  const open = (sealed: string) => (sealed === 'sealed' ? '4111111145551142' : '');

  it('a merchant-initiated repeat: the card opened, no CVV, the network id and the repeat’s type', async () => {
    const { cardOnFileOrder } = await import('./migrate');
    const sent = cardOnFileOrder(order(reg({})), open);
    expect(sent?.cardOnFile).toEqual({ networkTransactionId: '777718270854480', type: 'RECURRING' });
    expect(sent?.decide.instrument).toEqual({
      kind: 'card',
      brand: 'VISA',
      number: '4111111145551142',
      expiryMonth: '03',
      expiryYear: '2030',
    });
  });

  it('never: a bank account, no network id, a cardholder’s use, a repeat without its type, a credit', async () => {
    const { cardOnFileOrder } = await import('./migrate');
    expect(cardOnFileOrder(order(reg({ bankAccount: { iban: 'DE89…' } }, false)), open)).toBeUndefined();
    expect(
      cardOnFileOrder(order(reg({ connectorRegistrationId: 'adyen@0:PSP:shopper' })), open),
    ).toBeUndefined();
    expect(
      cardOnFileOrder(order(reg({}), { ...mit, standingInstruction: { source: 'CIT' } }), open),
    ).toBeUndefined();
    expect(
      cardOnFileOrder(order(reg({}), { ...mit, standingInstruction: { source: 'MIT' } }), open),
    ).toBeUndefined();
    expect(cardOnFileOrder(order(reg({}), { ...mit, paymentType: 'CD' }), open)).toBeUndefined();
    expect(cardOnFileOrder(order(reg({})), undefined)).toBeUndefined();
  });
});
