/**
 * Asking Stripe about an uncertain registration (inquire-registration.ts), against the stateful
 * fake of Stripe: found by the gateway's id in the customer's metadata and its SetupIntent, the
 * same answer `register` gave; a declined one's decline; none there: 700.400.580.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Registration } from '../../../shared/engine/core/model';
import { type StripeFake, startStripeFake, stripeSettings } from '../../test-kit/fakes/stripe';
import { type ConnectorAnswer, isNotSupported, type NotSupported } from '../kit/contract';
import { stripeConnector } from './connector';

let fake: StripeFake;
beforeAll(async () => {
  fake = await startStripeFake();
});
afterAll(async () => {
  await fake.close();
});

const connector = () => stripeConnector(stripeSettings(fake.baseUrl), (url, init) => fetch(url, init));

function answered(answer: ConnectorAnswer | NotSupported): ConnectorAnswer {
  if (isNotSupported(answer)) throw new Error(`not supported: ${answer.notSupported}`);
  return answer;
}

let ids = 0;
const gatewayId = () => `5ac7a4a0${String(++ids).padStart(24, '0')}`;
const registrationOf = (id: string) => ({ id }) as Registration;

async function register(id: string, number: string) {
  return connector().register({
    channel: {} as never,
    request: {},
    decide: {
      instrument: {
        kind: 'card',
        brand: 'VISA',
        number,
        expiryMonth: '12',
        expiryYear: '2034',
        cvv: '123',
        holder: 'Jane Jones',
      },
    },
    now: new Date(),
    paymentId: id,
  });
}

describe('inquireRegistration (stripe)', () => {
  it('finds a registration by the gateway’s id: its customer and card, as register answered', async () => {
    const id = gatewayId();
    const made = answered(await register(id, '4242424242424242'));
    expect(made.code).toBe('000.000.000');
    const found = answered(await connector().inquireRegistration(registrationOf(id)));
    expect(found).toMatchObject({ code: '000.000.000', registrationId: made.registrationId, id: made.id });
  });

  it('finds a declined registration: its decline, as register answered', async () => {
    const id = gatewayId();
    const made = answered(await register(id, '4000000000000002'));
    expect(made.code).not.toBe('000.000.000');
    const found = answered(await connector().inquireRegistration(registrationOf(id)));
    expect(found.code).toBe(made.code);
  });

  it('says 700.400.580 when Stripe has no registration of that id', async () => {
    const found = answered(await connector().inquireRegistration(registrationOf(gatewayId())));
    expect(found.code).toBe('700.400.580');
  });
});
