import { describe, expect, it } from 'vitest';
import { checkRules, isRuleErrors, MAX_WINDOW_SECONDS, type RiskRules } from './rules';

const FULL = {
  blockedBins: ['411111', '52000000'],
  blockedCardCountries: ['ru', 'KP'],
  blockedBillingCountries: ['IR'],
  blockedIps: ['203.0.113.7', '198.51.100.0/24', '2001:db8:abcd::/48', '0.0.0.0/0'],
  allowedIps: ['192.0.2.0/28'],
  blockedEmails: ['Fraud@Example.COM'],
  blockedEmailDomains: ['Mailinator.com'],
  amountLimits: { EUR: { min: 100, max: 1_000_000 }, JPY: { max: 50_000 } },
  velocity: [
    { per: 'card', windowSeconds: 3600, maxCount: 3 },
    { per: 'email', windowSeconds: 86_400, maxVolume: { EUR: 500_000 } },
    { per: 'ip', windowSeconds: 60, maxCount: 10, maxVolume: { USD: 100_000 } },
  ],
  scoring: {
    threshold: 80,
    countryMismatch: 30,
    missingEmail: 10,
    missingIp: 10,
    brands: { amex: 5 },
    parameters: [{ name: 'USER_DATA1', values: ['vip'], points: -50 }],
  },
  ruleSets: { eu: { blockedBins: ['400000'] }, 'shop.example/ch': {} },
};

function errorsOf(json: unknown): string[] {
  const result = checkRules(json);
  if (!isRuleErrors(result)) throw new Error('expected the rules to be refused');
  return result.errors;
}

describe('checkRules: accepted configurations', () => {
  it('accepts an empty rule set (blocks nothing)', () => {
    expect(checkRules({})).toEqual({});
  });

  it('accepts every rule and normalises case (countries upper, e-mail lower, brand keys upper)', () => {
    const rules = checkRules(FULL);
    expect(isRuleErrors(rules)).toBe(false);
    const r = rules as RiskRules;
    expect(r.blockedCardCountries).toEqual(['RU', 'KP']);
    expect(r.blockedEmails).toEqual(['fraud@example.com']);
    expect(r.blockedEmailDomains).toEqual(['mailinator.com']);
    expect(r.scoring?.brands).toEqual({ AMEX: 5 });
    expect(r.velocity).toEqual(FULL.velocity);
    expect(r.amountLimits).toEqual(FULL.amountLimits);
    expect(r.ruleSets?.eu).toEqual({ blockedBins: ['400000'] });
  });

  it('is JSON-serialisable: a round trip through JSON gives the same rules, which check again', () => {
    const rules = checkRules(FULL) as RiskRules;
    const copy: unknown = JSON.parse(JSON.stringify(rules));
    expect(copy).toEqual(rules);
    expect(checkRules(copy)).toEqual(rules);
  });

  it('accepts the longest window and a maxCount of 1', () => {
    expect(
      isRuleErrors(checkRules({ velocity: [{ per: 'ip', windowSeconds: MAX_WINDOW_SECONDS, maxCount: 1 }] })),
    ).toBe(false);
  });
});

describe('checkRules: refused configurations name the field', () => {
  it.each([
    ['not an object', [], 'rules: must be an object'],
    ['a typo in a field name', { blockedBin: ['411111'] }, 'blockedBin: unknown field'],
    [
      'a BIN too short',
      { blockedBins: ['4111'] },
      'blockedBins[0]: "4111" must be a card number prefix of 6 to 8 digits',
    ],
    ['a BIN too long', { blockedBins: ['411111', '411111111'] }, 'blockedBins[1]: "411111111"'],
    ['a BIN with letters', { blockedBins: ['41111a'] }, 'blockedBins[0]'],
    ['a list that is a string', { blockedBins: '411111' }, 'blockedBins: must be a list of strings'],
    ['a number in a list', { blockedBins: [411111] }, 'blockedBins[0]: must be a string'],
    [
      'an unknown card country',
      { blockedCardCountries: ['XX'] },
      'blockedCardCountries[0]: "XX" is not an ISO 3166',
    ],
    ['an alpha-3 billing country', { blockedBillingCountries: ['DEU'] }, 'blockedBillingCountries[0]: "DEU"'],
    [
      'an IP that is not one',
      { blockedIps: ['not-an-ip'] },
      'blockedIps[0]: "not-an-ip" is not an IPv4 or IPv6',
    ],
    [
      'a range with host bits',
      { blockedIps: ['10.1.2.3/8'] },
      'blockedIps[0]: "10.1.2.3/8" has bits set after the prefix',
    ],
    [
      'an IPv4 prefix over 32',
      { blockedIps: ['10.0.0.0/33'] },
      'blockedIps[0]: "10.0.0.0/33" has a CIDR prefix length out of range',
    ],
    ['an IPv6 prefix over 128', { blockedIps: ['2001:db8::/129'] }, 'blockedIps[0]'],
    ['a bad allowed IP', { blockedIps: ['0.0.0.0/0'], allowedIps: ['1.2.3'] }, 'allowedIps[0]'],
    [
      'allowed IPs without blocked ones',
      { allowedIps: ['192.0.2.1'] },
      'allowedIps: only makes exceptions to blockedIps',
    ],
    [
      'an e-mail without @',
      { blockedEmails: ['nobody'] },
      'blockedEmails[0]: "nobody" is not an e-mail address',
    ],
    [
      'an e-mail domain with @',
      { blockedEmailDomains: ['@example.com'] },
      'blockedEmailDomains[0]: "@example.com" must be a domain without @',
    ],
    ['an e-mail domain with spaces', { blockedEmailDomains: ['exa mple.com'] }, 'blockedEmailDomains[0]'],
    [
      'a lower-case currency',
      { amountLimits: { eur: { max: 100 } } },
      'amountLimits.eur: "eur" is not an ISO 4217 currency code (write EUR)',
    ],
    [
      'a currency without minor unit',
      { amountLimits: { XAU: { max: 1 } } },
      'amountLimits.XAU: XAU has no minor unit',
    ],
    [
      'a decimal amount',
      { amountLimits: { EUR: { max: 10.5 } } },
      'amountLimits.EUR.max: must be a whole number of minor units of at least 0, got 10.5 (amounts are in minor units',
    ],
    ['an amount as a string', { amountLimits: { EUR: { min: '100' } } }, 'amountLimits.EUR.min'],
    ['a negative amount', { amountLimits: { EUR: { min: -1 } } }, 'amountLimits.EUR.min'],
    [
      'min above max',
      { amountLimits: { EUR: { min: 500, max: 100 } } },
      'amountLimits.EUR: min 500 is greater than max 100',
    ],
    ['a limit without bounds', { amountLimits: { EUR: {} } }, 'amountLimits.EUR: needs min, max or both'],
    [
      'a limit with a typo',
      { amountLimits: { EUR: { maximum: 5 } } },
      'amountLimits.EUR.maximum: unknown field',
    ],
    ['velocity not a list', { velocity: { per: 'card' } }, 'velocity: must be a list'],
    [
      'an unknown velocity key',
      { velocity: [{ per: 'phone', windowSeconds: 60, maxCount: 1 }] },
      'velocity[0].per: must be "card", "email" or "ip"',
    ],
    [
      'a zero window',
      { velocity: [{ per: 'card', windowSeconds: 0, maxCount: 1 }] },
      'velocity[0].windowSeconds: must be between 1 and',
    ],
    [
      'a window over a year',
      { velocity: [{ per: 'card', windowSeconds: MAX_WINDOW_SECONDS + 1, maxCount: 1 }] },
      'velocity[0].windowSeconds',
    ],
    [
      'a fractional window',
      { velocity: [{ per: 'card', windowSeconds: 1.5, maxCount: 1 }] },
      'velocity[0].windowSeconds: must be a whole number',
    ],
    ['no window', { velocity: [{ per: 'card', maxCount: 1 }] }, 'velocity[0].windowSeconds: required'],
    [
      'a limit without maximum',
      { velocity: [{ per: 'card', windowSeconds: 60 }] },
      'velocity[0]: needs maxCount, maxVolume or both',
    ],
    [
      'a zero count',
      { velocity: [{ per: 'card', windowSeconds: 60, maxCount: 0 }] },
      'velocity[0].maxCount: must be between 1',
    ],
    [
      'a zero volume',
      { velocity: [{ per: 'ip', windowSeconds: 60, maxVolume: { EUR: 0 } }] },
      'velocity[0].maxVolume.EUR',
    ],
    [
      'a volume in a bad currency',
      { velocity: [{ per: 'ip', windowSeconds: 60, maxVolume: { EURO: 5 } }] },
      'velocity[0].maxVolume.EURO',
    ],
    ['a zero threshold', { scoring: { threshold: 0 } }, 'scoring.threshold: must be between 1 and 99999'],
    [
      'fractional points',
      { scoring: { countryMismatch: 1.5 } },
      'scoring.countryMismatch: must be a whole number',
    ],
    [
      'points out of range',
      { scoring: { missingIp: 100_000 } },
      'scoring.missingIp: must be between -99999 and 99999',
    ],
    ['brand points as text', { scoring: { brands: { VISA: '5' } } }, 'scoring.brands.VISA'],
    [
      'a bad parameter name',
      { scoring: { parameters: [{ name: 'x', values: ['a'], points: 1 }] } },
      'scoring.parameters[0].name',
    ],
    [
      'a parameter without values',
      { scoring: { parameters: [{ name: 'USER_DATA1', values: [], points: 1 }] } },
      'scoring.parameters[0].values: must list at least one value',
    ],
    [
      'a parameter without points',
      { scoring: { parameters: [{ name: 'USER_DATA1', values: ['a'] }] } },
      'scoring.parameters[0].points: required',
    ],
    ['a scoring typo', { scoring: { treshold: 5 } }, 'scoring.treshold: unknown field'],
    ['a bad rule in a named set', { ruleSets: { eu: { blockedBins: ['x'] } } }, 'ruleSets.eu.blockedBins[0]'],
    [
      'a typo in a named set',
      { ruleSets: { eu: { blockedBIN: [] } } },
      'ruleSets.eu.blockedBIN: unknown field',
    ],
    [
      'nested named sets',
      { ruleSets: { eu: { ruleSets: {} } } },
      'ruleSets.eu.ruleSets: named rule sets cannot nest',
    ],
    ['a named set that is not an object', { ruleSets: { eu: [] } }, 'ruleSets.eu: must be an object'],
    [
      'a __proto__ set name',
      JSON.parse('{"ruleSets": {"__proto__": {}}}'),
      'ruleSets.__proto__: "__proto__" cannot name a rule set',
    ],
    [
      'a brand listed twice',
      { scoring: { brands: { visa: 1, VISA: 2 } } },
      'scoring.brands.VISA: VISA is listed twice',
    ],
    ['an empty set name', { ruleSets: { '': {} } }, 'ruleSets.: a rule set name'],
    [
      'a set name over 255 characters',
      { ruleSets: { ['x'.repeat(256)]: {} } },
      'a rule set name (the risk.channelId that selects it) must be 1 to 255 characters',
    ],
  ])('%s', (_, json, message) => {
    const errors = errorsOf(json);
    expect(errors.some((e) => e.startsWith(message) || e.includes(message))).toBe(true);
  });

  it('reports every problem at once', () => {
    const errors = errorsOf({
      blockedBins: ['1'],
      blockedCardCountries: ['ZZ'],
      amountLimits: { EUR: { max: 1.5 } },
      velocity: [{ per: 'card', windowSeconds: 0, maxCount: 0 }],
    });
    expect(errors.map((e) => e.split(':')[0])).toEqual([
      'blockedBins[0]',
      'blockedCardCountries[0]',
      'amountLimits.EUR.max',
      'velocity[0].windowSeconds',
      'velocity[0].maxCount',
    ]);
  });
});
