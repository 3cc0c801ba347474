import { describe, expect, it } from 'vitest';
import {
  AuthenticationCodes,
  type AuthenticationStatus,
  authenticationResult,
  CHALLENGE_CODE,
  ENROLLED_CARDS,
  eciOf,
  failureCodeOf,
  newTransactionIds,
  PROTOCOL_VERSION,
  proceeds,
  profileOf,
} from './access-control-server';

const NOT_LISTED = '4200000000000000';
const FRICTIONLESS_Y = '4200000000000091'; // Y, method data
const FRICTIONLESS_A = '4200000000000059'; // A, no method data
const UNAVAILABLE = '4012001037461114'; // U
const NOT_PARTICIPATING = '4532497088771651';
const CHALLENGE_METHOD = '4200000000000042'; // challenge, method data
const CHALLENGE_PLAIN = '4200000000000018'; // challenge, no method data
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

describe('profileOf', () => {
  it.each(Object.entries(ENROLLED_CARDS))('%s without overrides: its listed profile', (number, profile) => {
    expect(profileOf({ number })).toEqual(profile);
    // Indicators that ask for nothing in particular change nothing.
    for (const challengeIndicator of ['01', '02', '06']) {
      expect(profileOf({ number, challengeIndicator })).toEqual(profile);
    }
  });

  it('a card that is not listed is not enrolled', () => {
    expect(profileOf({ number: NOT_LISTED })).toBeUndefined();
    expect(profileOf({ number: '5454545454545454' })).toBeUndefined();
    expect(profileOf({ number: NOT_LISTED, customParameters: { '3DS2_flow': 'challenge' } })).toBeUndefined();
    expect(profileOf({ number: NOT_LISTED, challengeIndicator: '03' })).toBeUndefined();
    expect(profileOf({ number: NOT_LISTED, exemptionFlag: '01' })).toBeUndefined();
  });

  describe('customParameters[3DS2_enrolled]', () => {
    it('true enrols any card: frictionless Y without method data', () => {
      expect(profileOf({ number: NOT_LISTED, customParameters: { '3DS2_enrolled': 'true' } })).toEqual({
        flow: 'frictionless',
        status: 'Y',
        methodData: false,
      });
    });

    it('true keeps a listed card as it is', () => {
      expect(profileOf({ number: FRICTIONLESS_A, customParameters: { '3DS2_enrolled': 'true' } })).toEqual(
        ENROLLED_CARDS[FRICTIONLESS_A],
      );
    });

    it.each(Object.keys(ENROLLED_CARDS))('false takes %s out, whatever else is asked', (number) => {
      expect(profileOf({ number, customParameters: { '3DS2_enrolled': 'false' } })).toBeUndefined();
      expect(
        profileOf({
          number,
          customParameters: { '3DS2_enrolled': 'false', '3DS2_flow': 'challenge' },
          challengeIndicator: '04',
        }),
      ).toBeUndefined();
    });

    it('other values are ignored', () => {
      expect(profileOf({ number: NOT_LISTED, customParameters: { '3DS2_enrolled': 'yes' } })).toBeUndefined();
      expect(profileOf({ number: FRICTIONLESS_Y, customParameters: { '3DS2_enrolled': 'no' } })).toEqual(
        ENROLLED_CARDS[FRICTIONLESS_Y],
      );
    });
  });

  describe('customParameters[3DS2_flow]', () => {
    it('challenge makes a frictionless card challenge, keeping its method data', () => {
      expect(profileOf({ number: FRICTIONLESS_Y, customParameters: { '3DS2_flow': 'challenge' } })).toEqual({
        flow: 'challenge',
        methodData: true,
      });
      expect(profileOf({ number: FRICTIONLESS_A, customParameters: { '3DS2_flow': 'challenge' } })).toEqual({
        flow: 'challenge',
        methodData: false,
      });
    });

    it('frictionless lets a challenge card through with Y, keeping its method data', () => {
      expect(
        profileOf({ number: CHALLENGE_METHOD, customParameters: { '3DS2_flow': 'frictionless' } }),
      ).toEqual({ flow: 'frictionless', status: 'Y', methodData: true });
      expect(
        profileOf({ number: CHALLENGE_PLAIN, customParameters: { '3DS2_flow': 'frictionless' } }),
      ).toEqual({ flow: 'frictionless', status: 'Y', methodData: false });
    });

    it('frictionless keeps the status of a frictionless card', () => {
      expect(
        profileOf({ number: FRICTIONLESS_A, customParameters: { '3DS2_flow': 'frictionless' } }),
      ).toEqual(ENROLLED_CARDS[FRICTIONLESS_A]);
      expect(profileOf({ number: UNAVAILABLE, customParameters: { '3DS2_flow': 'frictionless' } })).toEqual(
        ENROLLED_CARDS[UNAVAILABLE],
      );
    });

    it('a card whose issuer takes no part stays so', () => {
      for (const flow of ['challenge', 'frictionless']) {
        expect(profileOf({ number: NOT_PARTICIPATING, customParameters: { '3DS2_flow': flow } })).toEqual({
          flow: 'not-participating',
        });
      }
      expect(profileOf({ number: NOT_PARTICIPATING, challengeIndicator: '04' })).toEqual({
        flow: 'not-participating',
      });
    });

    it('with 3DS2_enrolled=true, challenge challenges any card', () => {
      expect(
        profileOf({
          number: NOT_LISTED,
          customParameters: { '3DS2_enrolled': 'true', '3DS2_flow': 'challenge' },
        }),
      ).toEqual({ flow: 'challenge', methodData: false });
    });
  });

  describe('threeDSecure.challengeIndicator and exemptionFlag', () => {
    it.each(['03', '04', '09'])(
      '%s: the merchant asks for a challenge, and gets it',
      (challengeIndicator) => {
        expect(profileOf({ number: FRICTIONLESS_Y, challengeIndicator })).toEqual({
          flow: 'challenge',
          methodData: true,
        });
        expect(profileOf({ number: UNAVAILABLE, challengeIndicator })).toEqual({
          flow: 'challenge',
          methodData: false,
        });
      },
    );

    it('04 (mandated) enrols a card that is not listed', () => {
      expect(profileOf({ number: NOT_LISTED, challengeIndicator: '04' })).toEqual({
        flow: 'challenge',
        methodData: false,
      });
    });

    it.each([
      ['exemptionFlag 01', { exemptionFlag: '01' }],
      ['exemptionFlag 04', { exemptionFlag: '04' }],
      ['challengeIndicator 05', { challengeIndicator: '05' }],
      ['challengeIndicator 07', { challengeIndicator: '07' }],
      ['challengeIndicator 08', { challengeIndicator: '08' }],
    ])('%s: a challenge card is exempted (frictionless Y)', (_, request) => {
      expect(profileOf({ number: CHALLENGE_METHOD, ...request })).toEqual({
        flow: 'frictionless',
        status: 'Y',
        methodData: true,
      });
      expect(profileOf({ number: CHALLENGE_PLAIN, ...request })).toEqual({
        flow: 'frictionless',
        status: 'Y',
        methodData: false,
      });
    });

    it('an exemption changes nothing for a card that would not challenge', () => {
      for (const number of [FRICTIONLESS_A, UNAVAILABLE, '4200000000000117']) {
        expect(profileOf({ number, exemptionFlag: '02' })).toEqual(ENROLLED_CARDS[number]);
        expect(profileOf({ number, challengeIndicator: '05' })).toEqual(ENROLLED_CARDS[number]);
      }
    });

    it('a requested challenge wins over an exemption', () => {
      expect(profileOf({ number: CHALLENGE_PLAIN, challengeIndicator: '03', exemptionFlag: '01' })).toEqual({
        flow: 'challenge',
        methodData: false,
      });
    });
  });
});

describe('eciOf', () => {
  it.each([
    ['VISA', 'Y', '05'],
    ['VISA', 'A', '06'],
    ['VISA', 'N', '06'],
    ['AMEX', 'Y', '05'],
    ['JCB', 'A', '06'],
    ['MASTER', 'Y', '02'],
    ['MASTER', 'A', '01'],
    ['MASTER', 'N', '01'],
    ['MAESTRO', 'Y', '02'],
    ['MAESTRO', 'A', '01'],
  ] as const)('%s, %s → %s', (brand, status, eci) => {
    expect(eciOf(brand, status)).toBe(eci);
  });

  it.each(['U', 'R'] as const)('%s has none', (status) => {
    expect(eciOf('VISA', status)).toBeUndefined();
    expect(eciOf('MASTER', status)).toBeUndefined();
  });
});

describe('failureCodeOf', () => {
  it.each([
    ['U', '000.400.103'],
    ['N', '000.400.102'],
    ['R', '100.390.114'],
  ] as const)('%s → %s', (status, code) => {
    expect(failureCodeOf(status)).toBe(code);
  });

  it('the other codes of an authentication', () => {
    expect(AuthenticationCodes).toEqual({
      NOT_PARTICIPATING: '000.400.101',
      CHALLENGE_FAILED: '800.400.200',
      CARDHOLDER_REQUIRED: '300.100.100',
    });
    expect(CHALLENGE_CODE).toBe('1234');
  });
});

describe('authenticationResult', () => {
  const ids = newTransactionIds();

  it('gives fresh version 4 UUIDs, different for the directory server and the ACS', () => {
    const other = newTransactionIds();
    expect(ids.dsTransactionId).toMatch(UUID);
    expect(ids.acsTransactionId).toMatch(UUID);
    expect(ids.dsTransactionId).not.toBe(ids.acsTransactionId);
    expect(other.dsTransactionId).not.toBe(ids.dsTransactionId);
  });

  it.each(['Y', 'A'] as const)('%s: an ECI and a 28-character verification value, no reason', (status) => {
    const result = authenticationResult('VISA', status, ids);
    expect(result).toEqual({
      eci: status === 'Y' ? '05' : '06',
      verificationId: expect.stringMatching(/^[A-Za-z0-9+/]{27}=$/),
      authenticationStatus: status,
      dsTransactionId: ids.dsTransactionId,
      acsTransactionId: ids.acsTransactionId,
      version: PROTOCOL_VERSION,
    });
    expect(authenticationResult('VISA', status, ids).verificationId).not.toBe(result.verificationId);
    expect(proceeds(status)).toBe(true);
  });

  it.each([
    ['N', '06', '01'],
    ['U', undefined, '06'],
    ['R', undefined, '11'],
  ] as const)('%s: no verification value, ECI %s, reason %s', (status, eci, reason) => {
    const result = authenticationResult('VISA', status as AuthenticationStatus, ids);
    expect(result.verificationId).toBeUndefined();
    expect(result.eci).toBe(eci);
    expect(result.transactionStatusReason).toBe(reason);
    expect(result.authenticationStatus).toBe(status);
    expect(proceeds(status)).toBe(false);
  });

  it('adds authType and challengeMandatedIndicator when told', () => {
    expect(
      authenticationResult('MASTER', 'Y', ids, { authType: '02', challengeMandated: true }),
    ).toMatchObject({
      eci: '02',
      authType: '02',
      challengeMandatedIndicator: 'Y',
    });
    expect(
      authenticationResult('VISA', 'Y', ids, { authType: '04', challengeMandated: false }),
    ).toMatchObject({
      authType: '04',
      challengeMandatedIndicator: 'N',
    });
    const plain = authenticationResult('VISA', 'Y', ids);
    expect(plain.authType).toBeUndefined();
    expect(plain.challengeMandatedIndicator).toBeUndefined();
  });
});
