/**
 * What the access control server is asked to authenticate (spec, risk.amount: "when present it is
 * also the amount authenticated in 3-D Secure"): risk.amount, else threeDSecure.amount, else the
 * payment's amount; the currency of the authentication message, else the payment's. Read from what
 * an ACS double saw, through authenticateCard (initial payments and stand-alone authentications).
 */
import { describe, expect, it } from 'vitest';
import type { AccessControlServer, AuthenticationRequest } from '../core/ports';
import { type AuthenticationSubject, authenticateCard } from './three-d-secure';

/** An ACS that enrols every card frictionlessly (Y) and keeps what it was asked. */
function recordingAcs() {
  const seen: AuthenticationRequest[] = [];
  const acs: AccessControlServer = {
    profileOf(request) {
      seen.push(request);
      return { flow: 'frictionless', status: 'Y', methodData: false };
    },
    newTransactionIds: () => ({ dsTransactionId: 'd'.repeat(36), acsTransactionId: 'a'.repeat(36) }),
    authenticationResult: (_brand, status, ids) => ({
      authenticationStatus: status,
      version: '2.2.0',
      ...ids,
    }),
  };
  return { acs, seen };
}

const V2 = {
  customer: {
    browser: {
      acceptHeader: 'text/html',
      language: 'de-DE',
      screenHeight: '1080',
      screenWidth: '1920',
      timezone: '-60',
      userAgent: 'Mozilla/5.0',
      javaEnabled: 'false',
    },
  },
  billing: { street1: 'Hauptstrasse 1', city: 'Berlin', postcode: '10115', country: 'DE' },
};

const request = (over: Partial<AuthenticationSubject>): AuthenticationSubject =>
  ({
    card: { number: '4200000000000091' },
    amount: '10.00',
    currency: 'EUR',
    ...V2,
    ...over,
  }) as AuthenticationSubject;

describe('the amount authenticated in 3-D Secure', () => {
  it.each([
    ['the payment’s amount', {}, { amount: '10.00', currency: 'EUR' }],
    [
      'threeDSecure.amount and currency',
      { threeDSecure: { amount: '12.00', currency: 'USD' } },
      { amount: '12.00', currency: 'USD' },
    ],
    [
      'risk.amount over both',
      { risk: { amount: '15.00' }, threeDSecure: { amount: '12.00' } },
      { amount: '15.00', currency: 'EUR' },
    ],
  ] as const)('%s', (_name, over, asked) => {
    const { acs, seen } = recordingAcs();
    const outcome = authenticateCard(acs, 'VISA', request(over as Partial<AuthenticationSubject>));
    expect(outcome.kind).toBe('authenticated');
    expect(seen).toHaveLength(1);
    expect(seen[0]).toMatchObject(asked);
  });
});
