import { describe, expect, it } from 'vitest';
import { MemoryHistory } from '../../server/test-kit/engine/memory-history';
import { describe as describeCode, isKnownCode, isRejected, resultCodeGroup } from '../result-codes';
import { checkRules, isRuleErrors, type RiskRules } from './rules';
import {
  formatScore,
  type HistoryCount,
  type HistoryKey,
  RISK_CODES,
  type RiskFacts,
  type RiskHistory,
  type RiskVerdict,
  SCORE_PATTERN,
  screen,
  velocityKeys,
} from './screen';

const NOW = new Date('2025-06-01T12:00:00.000Z');
const ago = (seconds: number) => new Date(NOW.getTime() - seconds * 1000);

/** A clean card payment of 10.00 EUR. */
const BASE: RiskFacts = {
  amount: 1000,
  currency: 'EUR',
  bin: '45000000',
  brand: 'VISA',
  cardCountry: 'DE',
  cardFingerprint: 'fp-alice',
  email: 'alice@shop.example',
  ip: '192.0.2.10',
  billingCountry: 'DE',
};

function rules(json: unknown): RiskRules {
  const checked = checkRules(json);
  if (isRuleErrors(checked)) throw new Error(checked.errors.join('\n'));
  return checked;
}

async function run(
  json: unknown,
  facts: Partial<RiskFacts> = {},
  history: RiskHistory = new MemoryHistory(),
) {
  return screen({ ...BASE, ...facts }, rules(json), history, NOW);
}

function expectAccept(verdict: RiskVerdict) {
  expect(verdict.outcome).toBe('accept');
  expect(verdict.code).toBeUndefined();
  expect(verdict.rule).toBeUndefined();
}

function expectReject(verdict: RiskVerdict, rule: string, code: string) {
  expect({ outcome: verdict.outcome, rule: verdict.rule, code: verdict.code }).toEqual({
    outcome: 'reject',
    rule,
    code,
  });
}

describe('result codes', () => {
  const expectedGroup: Record<keyof typeof RISK_CODES, string> = {
    riskAmountBelowAmount: 'rejectedAmount',
    amountOutsideLimits: 'rejectedAmount',
    binBlocked: 'rejectedBlacklist',
    countryBlocked: 'rejectedBlacklist',
    ipInvalid: 'rejectedExternalRisk',
    ipBlocked: 'rejectedBlacklist',
    emailInvalid: 'rejectedExternalRisk',
    emailBlocked: 'rejectedBlacklist',
    countPerCard: 'rejectedRiskValidation',
    countPerIp: 'rejectedRiskValidation',
    countPerEmail: 'rejectedRiskValidation',
    volumePerCard: 'rejectedRiskValidation',
    volumePerIp: 'rejectedRiskValidation',
    volumePerEmail: 'rejectedRiskValidation',
    scoreThreshold: 'rejectedExternalRisk',
  };

  it.each(Object.entries(RISK_CODES))(
    '%s (%s) is in the catalogue and classified as a rejection',
    (name, code) => {
      expect(isKnownCode(code)).toBe(true);
      expect(describeCode(code)).toBeTruthy();
      expect(isRejected(code)).toBe(true);
      expect(resultCodeGroup(code)).toBe(expectedGroup[name as keyof typeof RISK_CODES]);
    },
  );

  it('uses the catalogue descriptions that match each rule', () => {
    expect(describeCode(RISK_CODES.binBlocked)).toBe('bin blacklisted');
    expect(describeCode(RISK_CODES.countryBlocked)).toBe('country blacklisted');
    expect(describeCode(RISK_CODES.ipBlocked)).toBe('ip blacklisted');
    expect(describeCode(RISK_CODES.emailBlocked)).toBe('email is blacklisted');
    expect(describeCode(RISK_CODES.amountOutsideLimits)).toBe(
      'Amount is outside allowed ticket size boundaries',
    );
    expect(describeCode(RISK_CODES.countPerCard)).toMatch(/number of transactions per account/);
    expect(describeCode(RISK_CODES.volumePerEmail)).toMatch(/volume of transactions per email/);
  });
});

describe('formatScore and risk.score', () => {
  it.each([
    [0, '0'],
    [-0, '0'],
    [100, '100'],
    [-25, '-25'],
    [99_999, '99999'],
    [-99_999, '-99999'],
    [100_000, '99999'],
    [-1_000_000, '-99999'],
  ])('%d → %s (clamped to ±99999)', (n, text) => {
    expect(formatScore(n)).toBe(text);
    expect(text).toMatch(SCORE_PATTERN);
  });

  it('refuses fractions', () => {
    expect(() => formatScore(1.5)).toThrow(RangeError);
    expect(() => formatScore(Number.NaN)).toThrow(RangeError);
  });

  it('the pattern is an optional sign and 1 to 5 digits', () => {
    for (const ok of ['0', '+0', '-1', '12345', '+99999', '-99999']) expect(ok).toMatch(SCORE_PATTERN);
    for (const bad of ['', '+', '123456', '1.5', '1e3', ' 1', '--1', '100000']) {
      expect(bad).not.toMatch(SCORE_PATTERN);
    }
  });

  it('a clean payment scores 0 with no signals', async () => {
    const verdict = await run({ blockedBins: ['411111'] });
    expect(verdict).toEqual({ outcome: 'accept', score: '0', signals: [] });
  });
});

describe('amount limits (inclusive bounds, per currency)', () => {
  const limits = { amountLimits: { EUR: { min: 100, max: 10_000 }, JPY: { max: 5000 } } };

  it('min: exactly min passes, one minor unit less is rejected', async () => {
    expectAccept(await run(limits, { amount: 100 }));
    const verdict = await run(limits, { amount: 99 });
    expectReject(verdict, 'amountLimits.min', '100.550.312');
    expect(verdict.detail).toBe('99 EUR is below the minimum 100');
  });

  it('max: exactly max passes, one minor unit more is rejected', async () => {
    expectAccept(await run(limits, { amount: 10_000 }));
    expectReject(await run(limits, { amount: 10_001 }), 'amountLimits.max', '100.550.312');
  });

  it('each currency has its own limits; a currency not listed has none', async () => {
    expectAccept(await run(limits, { amount: 6000 }));
    expectReject(await run(limits, { amount: 6000, currency: 'JPY' }), 'amountLimits.max', '100.550.312');
    expectAccept(await run(limits, { amount: 5000, currency: 'JPY' }));
    expectAccept(await run(limits, { amount: 1, currency: 'JPY' }));
    expectAccept(await run(limits, { amount: 99_999_999, currency: 'USD' }));
    expectAccept(await run(limits, { amount: 0, currency: 'USD' }));
    expectAccept(await run(limits, { amount: 1, currency: 'constructor' }));
  });
});

describe('risk.amount', () => {
  const limits = { amountLimits: { EUR: { max: 10_000 } } };

  it('is the amount screened by the amount limits', async () => {
    expectAccept(await run(limits, { amount: 5000 }));
    expectReject(
      await run(limits, { amount: 5000, risk: { amount: 10_001 } }),
      'amountLimits.max',
      '100.550.312',
    );
    expectAccept(await run(limits, { amount: 5000, risk: { amount: 10_000 } }));
  });

  it('may not be smaller than the amount (100.550.605); equal passes', async () => {
    expectReject(await run({}, { amount: 5000, risk: { amount: 4999 } }), 'risk.amount', '100.550.605');
    expectAccept(await run({}, { amount: 5000, risk: { amount: 5000 } }));
  });

  it("is this payment's share of velocity volumes", async () => {
    const history = new MemoryHistory();
    history.add({ kind: 'card', value: 'fp-alice' }, 'EUR', 9000, ago(10));
    const velocity = { velocity: [{ per: 'card', windowSeconds: 3600, maxVolume: { EUR: 10_000 } }] };
    expectAccept(await run(velocity, { amount: 1000 }, history));
    expectReject(
      await run(velocity, { amount: 1000, risk: { amount: 1001 } }, history),
      'velocity[0].maxVolume',
      '800.120.201',
    );
  });
});

describe('blockedBins (6 to 8 digit prefixes)', () => {
  const blocked = { blockedBins: ['411111', '52000011'] };

  it('a 6-digit entry blocks every card starting with it', async () => {
    const verdict = await run(blocked, { bin: '411111' });
    expectReject(verdict, 'blockedBins', '800.300.401');
    expect(verdict.detail).toBe('BIN prefix 411111 is blocked');
    expectReject(await run(blocked, { bin: '41111199' }), 'blockedBins', '800.300.401');
  });

  it('an 8-digit entry blocks only the 8-digit BIN it names', async () => {
    expectReject(await run(blocked, { bin: '52000011' }), 'blockedBins', '800.300.401');
    expectAccept(await run(blocked, { bin: '52000012' }));
    // A 6-digit BIN cannot tell whether the card falls under the 8-digit entry: not blocked.
    expectAccept(await run(blocked, { bin: '520000' }));
  });

  it('other BINs and payments without a card pass', async () => {
    expectAccept(await run(blocked, { bin: '411112' }));
    expectAccept(await run(blocked, { bin: '411110' }));
    expectAccept(await run(blocked, { bin: undefined }));
  });
});

describe('blocked countries (case-insensitive)', () => {
  it('blockedCardCountries fires on the card country only', async () => {
    const blocked = { blockedCardCountries: ['RU'] };
    const verdict = await run(blocked, { cardCountry: 'RU' });
    expectReject(verdict, 'blockedCardCountries', '800.300.102');
    expect(verdict.detail).toBe('card country RU is blocked');
    expectReject(await run(blocked, { cardCountry: 'ru' }), 'blockedCardCountries', '800.300.102');
    expectAccept(await run(blocked, { cardCountry: 'DE' }));
    expectAccept(await run(blocked, { cardCountry: undefined }));
    expectAccept(await run(blocked, { billingCountry: 'RU' }));
  });

  it('blockedBillingCountries fires on the billing country only', async () => {
    const blocked = { blockedBillingCountries: ['ir'] };
    expectReject(await run(blocked, { billingCountry: 'IR' }), 'blockedBillingCountries', '800.300.102');
    expectReject(await run(blocked, { billingCountry: 'ir' }), 'blockedBillingCountries', '800.300.102');
    expectAccept(await run(blocked, { billingCountry: 'DE' }));
    expectAccept(await run(blocked, { billingCountry: undefined }));
    expectAccept(await run(blocked, { cardCountry: 'IR' }));
  });
});

describe('blockedIps / allowedIps', () => {
  it('an exact IPv4 address blocks that address only', async () => {
    const blocked = { blockedIps: ['203.0.113.7'] };
    expectReject(await run(blocked, { ip: '203.0.113.7' }), 'blockedIps', '800.300.301');
    expectAccept(await run(blocked, { ip: '203.0.113.8' }));
    expectAccept(await run(blocked, { ip: undefined }));
  });

  it('an IPv4 CIDR range: both ends inside, the neighbours outside', async () => {
    const blocked = { blockedIps: ['198.51.100.0/24'] };
    const verdict = await run(blocked, { ip: '198.51.100.0' });
    expectReject(verdict, 'blockedIps', '800.300.301');
    expect(verdict.detail).toBe('IP in blocked range 198.51.100.0/24');
    expectReject(await run(blocked, { ip: '198.51.100.255' }), 'blockedIps', '800.300.301');
    expectAccept(await run(blocked, { ip: '198.51.99.255' }));
    expectAccept(await run(blocked, { ip: '198.51.101.0' }));
  });

  it('an IPv4-mapped IPv6 address is caught by IPv4 rules', async () => {
    const blocked = { blockedIps: ['198.51.100.0/24'] };
    expectReject(await run(blocked, { ip: '::ffff:198.51.100.5' }), 'blockedIps', '800.300.301');
  });

  it('an IPv6 CIDR range: both ends inside (any spelling), the neighbours outside', async () => {
    const blocked = { blockedIps: ['2001:db8:abcd::/48'] };
    expectReject(await run(blocked, { ip: '2001:db8:abcd::' }), 'blockedIps', '800.300.301');
    expectReject(
      await run(blocked, { ip: '2001:DB8:ABCD:FFFF:FFFF:FFFF:FFFF:FFFF' }),
      'blockedIps',
      '800.300.301',
    );
    expectAccept(await run(blocked, { ip: '2001:db8:abce::' }));
    expectAccept(await run(blocked, { ip: '2001:db8:abcc:ffff:ffff:ffff:ffff:ffff' }));
    expectAccept(await run(blocked, { ip: '192.0.2.10' }));
  });

  it('an exact IPv6 address matches all its spellings', async () => {
    const blocked = { blockedIps: ['2001:db8::1'] };
    expectReject(
      await run(blocked, { ip: '2001:0db8:0000:0000:0000:0000:0000:0001' }),
      'blockedIps',
      '800.300.301',
    );
    expectAccept(await run(blocked, { ip: '2001:db8::2' }));
  });

  it('allowedIps are exceptions to blockedIps; blocking everything makes them the only addresses admitted', async () => {
    const only = { blockedIps: ['0.0.0.0/0', '::/0'], allowedIps: ['192.0.2.0/28', '2001:db8::/64'] };
    expectAccept(await run(only, { ip: '192.0.2.0' }));
    expectAccept(await run(only, { ip: '192.0.2.15' }));
    expectReject(await run(only, { ip: '192.0.2.16' }), 'blockedIps', '800.300.301');
    expectAccept(await run(only, { ip: '2001:db8::ffff' }));
    expectReject(await run(only, { ip: '2001:db8:0:1::' }), 'blockedIps', '800.300.301');
  });

  it('an unparsable IP is rejected when the rule set screens IPs, ignored otherwise', async () => {
    const verdict = await run({ blockedIps: ['203.0.113.7'] }, { ip: '999.1.1.1' });
    expectReject(verdict, 'invalidIp', '100.400.318');
    expectReject(
      await run({ velocity: [{ per: 'ip', windowSeconds: 60, maxCount: 5 }] }, { ip: 'localhost' }),
      'invalidIp',
      '100.400.318',
    );
    expectAccept(await run({ blockedBins: ['411111'] }, { ip: '999.1.1.1' }));
  });
});

describe('blockedEmails / blockedEmailDomains (case-insensitive)', () => {
  it('a blocked address matches in any case, other addresses pass', async () => {
    const blocked = { blockedEmails: ['Fraud@Example.com'] };
    const verdict = await run(blocked, { email: 'FRAUD@example.COM' });
    expectReject(verdict, 'blockedEmails', '800.300.200');
    expect(verdict.detail).not.toMatch(/fraud/i);
    expectReject(await run(blocked, { email: ' fraud@example.com ' }), 'blockedEmails', '800.300.200');
    expectAccept(await run(blocked, { email: 'fraud2@example.com' }));
    expectAccept(await run(blocked, { email: undefined }));
  });

  it('a blocked domain matches in any case and blocks its subdomains, not look-alikes', async () => {
    const blocked = { blockedEmailDomains: ['Mailinator.com'] };
    expectReject(await run(blocked, { email: 'x@MAILINATOR.COM' }), 'blockedEmailDomains', '800.300.200');
    expectReject(await run(blocked, { email: 'x@mailinator.com' }), 'blockedEmailDomains', '800.300.200');
    expectReject(await run(blocked, { email: 'x@eu.Mailinator.com' }), 'blockedEmailDomains', '800.300.200');
    expectAccept(await run(blocked, { email: 'x@notmailinator.com' }));
    expectAccept(await run(blocked, { email: 'x@mailinator.com.example' }));
    expectAccept(await run(blocked, { email: 'mailinator.com@example.com' }));
  });

  it('an unparsable e-mail is rejected when the rule set screens e-mail, ignored otherwise', async () => {
    expectReject(
      await run({ blockedEmailDomains: ['example.com'] }, { email: 'not-an-email' }),
      'invalidEmail',
      '100.400.315',
    );
    expectReject(
      await run({ velocity: [{ per: 'email', windowSeconds: 60, maxCount: 5 }] }, { email: 'a@' }),
      'invalidEmail',
      '100.400.315',
    );
    expectAccept(await run({ blockedBins: ['411111'] }, { email: 'not-an-email' }));
  });
});

describe('velocity: counts (the payment screened counts: with maxCount N, N-1 earlier pass, N earlier fail)', () => {
  const perCard = { velocity: [{ per: 'card', windowSeconds: 3600, maxCount: 3 }] };
  const card = { kind: 'card', value: 'fp-alice' } as const;

  it('card: 2 earlier payments pass (this is the 3rd), 3 earlier are rejected', async () => {
    const history = new MemoryHistory();
    history.add(card, 'EUR', 100, ago(100));
    history.add(card, 'EUR', 100, ago(200));
    expectAccept(await run(perCard, {}, history));
    history.add(card, 'EUR', 100, ago(300));
    const verdict = await run(perCard, {}, history);
    expectReject(verdict, 'velocity[0].maxCount', '800.120.101');
    expect(verdict.detail).toBe('3 earlier payments per card in 3600 s; at most 3 allowed');
  });

  it('window edge: a payment exactly windowSeconds ago is in the window, 1 ms older is not', async () => {
    const atEdge = new MemoryHistory();
    const pastEdge = new MemoryHistory();
    for (const h of [atEdge, pastEdge]) {
      h.add(card, 'EUR', 100, ago(1));
      h.add(card, 'EUR', 100, ago(2));
    }
    atEdge.add(card, 'EUR', 100, ago(3600));
    pastEdge.add(card, 'EUR', 100, new Date(ago(3600).getTime() - 1));
    expectReject(await run(perCard, {}, atEdge), 'velocity[0].maxCount', '800.120.101');
    expectAccept(await run(perCard, {}, pastEdge));
  });

  it('card: other cards do not count, and without a fingerprint the limit does not apply', async () => {
    const history = new MemoryHistory();
    for (let i = 0; i < 5; i++) history.add(card, 'EUR', 100, ago(i + 1));
    expectAccept(await run(perCard, { cardFingerprint: 'fp-bob' }, history));
    expectAccept(await run(perCard, { cardFingerprint: undefined }, history));
    expectReject(await run(perCard, {}, history), 'velocity[0].maxCount', '800.120.101');
  });

  it('email: counted case-insensitively', async () => {
    const rule = { velocity: [{ per: 'email', windowSeconds: 600, maxCount: 2 }] };
    const history = new MemoryHistory();
    history.record({ ...BASE, email: 'Alice@Shop.Example' }, ago(60));
    expectAccept(await run(rule, {}, history));
    history.record({ ...BASE, email: 'ALICE@shop.example' }, ago(30));
    expectReject(await run(rule, {}, history), 'velocity[0].maxCount', '800.120.103');
    expectAccept(await run(rule, { email: 'bob@shop.example' }, history));
  });

  it('ip: counted by the address, whatever its spelling', async () => {
    const rule = { velocity: [{ per: 'ip', windowSeconds: 60, maxCount: 1 }] };
    const history = new MemoryHistory();
    expectAccept(await run(rule, { ip: '2001:db8::7' }, history));
    history.record({ ...BASE, ip: '2001:0DB8:0:0:0:0:0:7' }, ago(59));
    expectReject(await run(rule, { ip: '2001:db8::7' }, history), 'velocity[0].maxCount', '800.120.102');
    expectAccept(await run(rule, { ip: '2001:db8::8' }, history));
    expectAccept(await run(rule, { ip: undefined }, history));
  });

  it('the first limit that fires is named by its index', async () => {
    const two = {
      velocity: [
        { per: 'card', windowSeconds: 60, maxCount: 2 },
        { per: 'card', windowSeconds: 86_400, maxCount: 3 },
      ],
    };
    const history = new MemoryHistory();
    history.add(card, 'EUR', 100, ago(3000));
    history.add(card, 'EUR', 100, ago(2000));
    history.add(card, 'EUR', 100, ago(1000));
    expectReject(await run(two, {}, history), 'velocity[1].maxCount', '800.120.101');
  });
});

describe('velocity: volumes (minor units per currency; exactly maxVolume including this payment passes)', () => {
  const rule = (per: string) => ({ velocity: [{ per, windowSeconds: 3600, maxVolume: { EUR: 10_000 } }] });

  it.each([
    ['card', '800.120.201'],
    ['email', '800.120.203'],
    ['ip', '800.120.202'],
  ])('%s: earlier 6000 + 4000 = 10000 passes, + 4001 is rejected with %s', async (per, code) => {
    const history = new MemoryHistory();
    history.record({ ...BASE, amount: 6000 }, ago(10));
    expectAccept(await run(rule(per), { amount: 4000 }, history));
    const verdict = await run(rule(per), { amount: 4001 }, history);
    expectReject(verdict, 'velocity[0].maxVolume', code);
    expect(verdict.detail).toBe(`6000 + 4001 EUR per ${per} in 3600 s; at most 10000 allowed`);
  });

  it('volumes of other currencies never count, and a currency not listed has no volume limit', async () => {
    const history = new MemoryHistory();
    history.record({ ...BASE, amount: 9_000_000, currency: 'USD' }, ago(10));
    expectAccept(await run(rule('card'), { amount: 10_000 }, history));
    expectAccept(await run(rule('card'), { amount: 50_000, currency: 'USD' }, history));
  });

  it('a single payment above the volume is rejected even with no history', async () => {
    expectReject(await run(rule('card'), { amount: 10_001 }), 'velocity[0].maxVolume', '800.120.201');
  });

  it('volumes older than the window are forgotten', async () => {
    const history = new MemoryHistory();
    history.record({ ...BASE, amount: 9000 }, new Date(ago(3600).getTime() - 1));
    expectAccept(await run(rule('card'), { amount: 9000 }, history));
    history.record({ ...BASE, amount: 9000 }, ago(3600));
    expectReject(await run(rule('card'), { amount: 9000 }, history), 'velocity[0].maxVolume', '800.120.201');
  });

  it('count and volume in one limit: the count is checked first', async () => {
    const both = { velocity: [{ per: 'card', windowSeconds: 60, maxCount: 1, maxVolume: { EUR: 100 } }] };
    const history = new MemoryHistory();
    history.record({ ...BASE, amount: 100 }, ago(1));
    expectReject(await run(both, { amount: 1000 }, history), 'velocity[0].maxCount', '800.120.101');
  });

  it('asks the history once per key and window, from now minus the window', async () => {
    const calls: [HistoryKey, Date][] = [];
    const spy: RiskHistory = {
      async count(key, since): Promise<HistoryCount> {
        calls.push([key, since]);
        return { count: 0, volume: new Map() };
      },
    };
    const limits = {
      velocity: [
        { per: 'card', windowSeconds: 60, maxCount: 5 },
        { per: 'card', windowSeconds: 60, maxVolume: { EUR: 100_000 } },
        { per: 'email', windowSeconds: 86_400, maxCount: 5 },
      ],
    };
    expectAccept(await run(limits, { email: 'Alice@Shop.Example' }, spy));
    expect(calls).toEqual([
      [{ kind: 'card', value: 'fp-alice' }, ago(60)],
      [{ kind: 'email', value: 'alice@shop.example' }, ago(86_400)],
    ]);
  });
});

describe('scoring', () => {
  it('countryMismatch scores when card and billing country differ, not when they agree or one is unknown', async () => {
    const scoring = { scoring: { countryMismatch: 30 } };
    const verdict = await run(scoring, { cardCountry: 'DE', billingCountry: 'FR' });
    expect(verdict).toEqual({
      outcome: 'accept',
      score: '30',
      signals: [{ name: 'countryMismatch', points: 30 }],
    });
    expect((await run(scoring, { cardCountry: 'de', billingCountry: 'DE' })).score).toBe('0');
    expect((await run(scoring, { cardCountry: undefined, billingCountry: 'FR' })).score).toBe('0');
  });

  it('missingEmail and missingIp score only when the fact is absent', async () => {
    const scoring = { scoring: { missingEmail: 7, missingIp: 11 } };
    expect((await run(scoring)).score).toBe('0');
    expect((await run(scoring, { email: undefined })).score).toBe('7');
    expect((await run(scoring, { ip: undefined })).score).toBe('11');
    expect((await run(scoring, { email: undefined, ip: '' })).score).toBe('18');
  });

  it('the threshold: a score one below passes, reaching it rejects with 100.400.319', async () => {
    const scoring = { scoring: { countryMismatch: 60, missingEmail: 39 } };
    const facts = { cardCountry: 'DE', billingCountry: 'FR', email: undefined };
    expectAccept(await run(scoring, facts));
    expect((await run(scoring, facts)).score).toBe('99');
    const at = await run({ scoring: { countryMismatch: 60, missingEmail: 40 } }, facts);
    expectReject(at, 'scoring.threshold', '100.400.319');
    expect(at.score).toBe('100');
    expect(at.signals.map((s) => s.name)).toEqual(['countryMismatch', 'missingEmail']);
  });

  it('a configured threshold replaces the default 100', async () => {
    const scoring = { scoring: { threshold: 30, countryMismatch: 30 } };
    expectReject(await run(scoring, { billingCountry: 'FR' }), 'scoring.threshold', '100.400.319');
    const high = { scoring: { threshold: 500, countryMismatch: 400 } };
    expectAccept(await run(high, { billingCountry: 'FR' }));
  });

  it('brands: the payment brand scores, and risk.brand replaces it', async () => {
    const scoring = { scoring: { brands: { VISA: 100, MASTER: 5 } } };
    expectReject(await run(scoring, { brand: 'VISA' }), 'scoring.threshold', '100.400.319');
    expectReject(await run(scoring, { brand: 'visa' }), 'scoring.threshold', '100.400.319');
    const verdict = await run(scoring, { brand: 'VISA', risk: { brand: 'MASTER' } });
    expectAccept(verdict);
    expect(verdict.signals).toEqual([{ name: 'brands.MASTER', points: 5 }]);
    expectReject(
      await run(scoring, { brand: 'AMEX', risk: { brand: 'VISA' } }),
      'scoring.threshold',
      '100.400.319',
    );
    expectAccept(await run(scoring, { brand: 'AMEX' }));
  });

  it('risk.parameters: a listed value scores (exact match), other values and names do not', async () => {
    const scoring = {
      scoring: {
        countryMismatch: 80,
        parameters: [
          { name: 'USER_DATA1', values: ['reseller'], points: 20 },
          { name: 'USER_DATA1', values: ['vip', 'staff'], points: -50 },
        ],
      },
    };
    const facts = { billingCountry: 'FR' };
    expectAccept(await run(scoring, facts));
    expectReject(
      await run(scoring, { ...facts, risk: { parameters: { USER_DATA1: 'reseller' } } }),
      'scoring.threshold',
      '100.400.319',
    );
    const vouched = await run(scoring, { ...facts, risk: { parameters: { USER_DATA1: 'staff' } } });
    expectAccept(vouched);
    expect(vouched.score).toBe('30');
    expect(vouched.signals).toEqual([
      { name: 'countryMismatch', points: 80 },
      { name: 'parameters[1].USER_DATA1', points: -50 },
    ]);
    expect((await run(scoring, { risk: { parameters: { USER_DATA1: 'VIP' } } })).score).toBe('0');
    expect((await run(scoring, { risk: { parameters: { USER_DATA2: 'vip' } } })).score).toBe('0');
  });

  it('negative scores are reported with their sign', async () => {
    const scoring = { scoring: { parameters: [{ name: 'USER_DATA1', values: ['vip'], points: -40 }] } };
    expect((await run(scoring, { risk: { parameters: { USER_DATA1: 'vip' } } })).score).toBe('-40');
  });

  it('a hard rule reports at least the threshold; soft points above it are kept', async () => {
    const blocked = { blockedBins: ['450000'] };
    expect((await run(blocked)).score).toBe('100');
    expect((await run({ ...blocked, scoring: { threshold: 500 } })).score).toBe('500');
    const loud = await run({ ...blocked, scoring: { threshold: 500, missingIp: 700 } }, { ip: undefined });
    expectReject(loud, 'blockedBins', '800.300.401');
    expect(loud.score).toBe('700');
  });

  it('the sum is clamped to 99999', async () => {
    const scoring = { scoring: { threshold: 99_999, missingIp: 99_999, missingEmail: 99_999 } };
    const verdict = await run(scoring, { ip: undefined, email: undefined });
    expectReject(verdict, 'scoring.threshold', '100.400.319');
    expect(verdict.score).toBe('99999');
  });
});

describe('risk.channelId selects a named rule set', () => {
  const channel = {
    blockedBins: ['450000'],
    ruleSets: {
      lenient: {},
      strict: { blockedBins: ['450000'], amountLimits: { EUR: { max: 500 } } },
    },
  };

  it('the named set replaces the default', async () => {
    expectReject(await run(channel), 'blockedBins', '800.300.401');
    const lenient = await run(channel, { risk: { channelId: 'lenient' } });
    expectAccept(lenient);
    expect(lenient.ruleSet).toBe('lenient');
  });

  it('a stricter set rejects what the default accepts', async () => {
    const other = { bin: '45000100' };
    expectAccept(await run(channel, other));
    const strict = await run(channel, { ...other, risk: { channelId: 'strict' } });
    expectReject(strict, 'amountLimits.max', '100.550.312');
    expect(strict.ruleSet).toBe('strict');
  });

  it('an unknown name (including inherited object keys) screens with the default set', async () => {
    for (const channelId of ['nope', 'Strict', '__proto__', 'toString', 'constructor']) {
      const verdict = await run(channel, { risk: { channelId } });
      expectReject(verdict, 'blockedBins', '800.300.401');
      expect(verdict.ruleSet).toBeUndefined();
    }
  });
});

describe('card data and facts no caller should send', () => {
  it('refuses a full card number as BIN or as fingerprint', async () => {
    await expect(run({}, { bin: '4111111111111111' })).rejects.toThrow(TypeError);
    await expect(run({}, { bin: '4111' })).rejects.toThrow(TypeError);
    await expect(run({}, { cardFingerprint: '4111111111111111' })).rejects.toThrow(
      /looks like a card number/,
    );
    expectAccept(await run({}, { cardFingerprint: 'b3f1c2d4e5a6978812345678' }));
  });

  it('refuses fractional or negative amounts', async () => {
    await expect(run({}, { amount: 10.5 })).rejects.toThrow(RangeError);
    await expect(run({}, { amount: -1 })).rejects.toThrow(RangeError);
    await expect(run({}, { risk: { amount: 1000.01 } })).rejects.toThrow(/risk.amount/);
  });
});

describe('velocityKeys and MemoryHistory', () => {
  it('normalises keys: e-mail lower case, IP canonical; skips what is absent or unparsable', () => {
    expect(velocityKeys({ ...BASE, email: ' Alice@Shop.EXAMPLE ', ip: '::ffff:192.0.2.1' })).toEqual([
      { kind: 'card', value: 'fp-alice' },
      { kind: 'email', value: 'alice@shop.example' },
      { kind: 'ip', value: '192.0.2.1' },
    ]);
    expect(velocityKeys({ amount: 1, currency: 'EUR', email: 'nope', ip: 'nope' })).toEqual([]);
  });

  it('counts payments at or after `since` and sums volume per currency', async () => {
    const history = new MemoryHistory();
    const key = { kind: 'email', value: 'a@b.example' } as const;
    history.add(key, 'EUR', 100, ago(10));
    history.add(key, 'EUR', 250, ago(20));
    history.add(key, 'USD', 999, ago(20));
    history.add(key, 'EUR', 5000, ago(21));
    history.add({ kind: 'ip', value: 'a@b.example' }, 'EUR', 1, ago(1));
    const seen = await history.count(key, ago(20));
    expect(seen.count).toBe(3);
    expect([...seen.volume]).toEqual([
      ['EUR', 350],
      ['USD', 999],
    ]);
    expect(() => history.add(key, 'EUR', 1.5, NOW)).toThrow(RangeError);
  });

  it('record() files a payment under each of its keys with the screened amount', async () => {
    const history = new MemoryHistory();
    history.record({ ...BASE, amount: 1000, risk: { amount: 1200 } }, NOW);
    for (const key of velocityKeys(BASE)) {
      const seen = await history.count(key, NOW);
      expect(seen.count).toBe(1);
      expect(seen.volume.get('EUR')).toBe(1200);
    }
  });
});
