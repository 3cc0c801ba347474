import { existsSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { expect, it, describe as suite } from 'vitest';
import {
  describe,
  type GroupId,
  isKnownCode,
  isPending,
  isRejected,
  isSuccess,
  isSuccessReview,
  RESULT_CODE_GROUPS,
  RESULT_CODES,
  ResultCodes,
  resultCodeGroup,
  resultCodesResponse,
} from './index';

/** Number of codes in facts Appendix A ("result codes by group (610)"). */
const APPENDIX_A_COUNT = 610;

/** Appendix A group headings G01–G26 → group id; G99 = unclassified. */
const APPENDIX_GROUP: Record<string, GroupId | undefined> = {
  G01: 'success',
  G02: 'successReview',
  G03: 'pending',
  G04: 'pendingLong',
  G05: 'rejected3dsRisk',
  G06: 'rejectedBank',
  G07: 'rejectedCommunication',
  G08: 'rejectedSystem',
  G09: 'rejectedAsync',
  G10: 'softDecline',
  G11: 'rejectedExternalRisk',
  G12: 'rejectedAvs',
  G13: 'rejected3ds',
  G14: 'rejectedBlacklist',
  G15: 'rejectedRiskValidation',
  G16: 'rejectedConfiguration',
  G17: 'rejectedRegistration',
  G18: 'rejectedJob',
  G19: 'rejectedReference',
  G20: 'rejectedFormat',
  G21: 'rejectedAddress',
  G22: 'rejectedContact',
  G23: 'rejectedAccount',
  G24: 'rejectedAmount',
  G25: 'rejectedRiskManagement',
  G26: 'chargeback',
  G99: undefined,
};

const FACTS = fileURLToPath(new URL('../../../shared/facts/opp-facts.md', import.meta.url));

/** Independent mini-parser of Appendix A: code → group heading (G01…G99). */
function appendixGroups(markdown: string): Map<string, string> {
  const out = new Map<string, string>();
  const appendix = markdown.slice(markdown.indexOf('## Appendix A'));
  let group = '';
  for (const line of appendix.split('\n')) {
    group = /^#### (G\d\d) /.exec(line)?.[1] ?? group;
    const code = /^\| (\d{3}\.\d{3}\.\d{3}) \|/.exec(line)?.[1];
    if (code) out.set(code, group);
  }
  return out;
}

suite('catalogue', () => {
  const codes = RESULT_CODES.map(([code]) => code);

  it(`has the ${APPENDIX_A_COUNT} codes of Appendix A`, () => {
    expect(RESULT_CODES).toHaveLength(APPENDIX_A_COUNT);
  });

  it('has unique, well-formed codes sorted by code and non-empty descriptions', () => {
    expect(new Set(codes).size).toBe(codes.length);
    for (const [code, description] of RESULT_CODES) {
      expect(code).toMatch(/^\d{3}\.\d{3}\.\d{3}$/);
      expect(description.trim()).not.toBe('');
      expect(description).toBe(description.trim());
    }
    expect(codes).toEqual([...codes].sort());
  });

  it('describes known codes verbatim and nothing else', () => {
    expect(describe('000.000.000')).toBe('Transaction succeeded');
    expect(describe('800.120.100')).toBe('Rejected by Throttling.');
    expect(describe('000.100.110')).toBe(
      "Request successfully processed in 'Merchant in Integrator Test Mode'",
    );
    expect(describe('700.600.002')).toBe('Retry blocked (Retry after 72 hours)');
    expect(describe('123.456.789')).toBeUndefined();
    expect(isKnownCode('200.300.404')).toBe(true);
    expect(isKnownCode('200.300.499')).toBe(false);
    expect(isKnownCode('')).toBe(false);
  });

  it('serves the GET /v1/resultcodes body', () => {
    const body = resultCodesResponse();
    expect(body.resultCodes).toHaveLength(APPENDIX_A_COUNT);
    expect(body.resultCodes[0]).toEqual({ code: '000.000.000', description: 'Transaction succeeded' });
    expect(body.resultCodes.map((r) => r.code)).toEqual(codes);
    // a fresh object each call: callers may not corrupt the catalogue
    body.resultCodes[0]!.description = 'x';
    expect(resultCodesResponse().resultCodes[0]!.description).toBe('Transaction succeeded');
  });
});

suite('ResultCodes constants', () => {
  it.each(Object.entries(ResultCodes))('%s = %s is in the catalogue', (_name, code) => {
    expect(isKnownCode(code)).toBe(true);
  });
});

suite('group classification', () => {
  it('has 26 groups with unique ids', () => {
    expect(RESULT_CODE_GROUPS).toHaveLength(26);
    expect(new Set(RESULT_CODE_GROUPS.map((g) => g.id)).size).toBe(26);
    expect(new Set(Object.values(APPENDIX_GROUP).filter(Boolean))).toEqual(
      new Set(RESULT_CODE_GROUPS.map((g) => g.id)),
    );
  });

  it('leaves exactly the five Appendix-A G99 codes unclassified', () => {
    const unclassified = RESULT_CODES.map(([code]) => code).filter((c) => resultCodeGroup(c) === undefined);
    expect(unclassified).toEqual(['000.500.000', '000.500.100', '700.600.002', '700.601.001', '700.601.003']);
  });

  it.skipIf(!existsSync(FACTS))('classifies every Appendix-A code into the group it is listed under', () => {
    const listed = appendixGroups(readFileSync(FACTS, 'utf8'));
    expect(listed.size).toBe(APPENDIX_A_COUNT);
    expect([...listed.keys()].sort()).toEqual(RESULT_CODES.map(([code]) => code));
    const wrong = [...listed]
      .map(([code, heading]) => ({ code, listed: APPENDIX_GROUP[heading], got: resultCodeGroup(code) }))
      .filter((r) => r.listed !== r.got);
    expect(wrong).toEqual([]);
  });

  // Key codes (§1.5) and every place where two published regexes overlap (see groups.ts).
  it.each<[string, GroupId | undefined]>([
    ['000.000.000', 'success'],
    ['000.100.110', 'success'],
    ['000.100.112', 'success'],
    ['000.400.110', 'success'],
    ['000.400.000', 'successReview'],
    ['000.400.100', 'successReview'],
    ['000.400.030', 'rejectedCommunication'],
    ['000.400.101', 'rejected3dsRisk'],
    ['000.400.111', 'rejected3dsRisk'],
    ['000.200.000', 'pending'],
    ['000.200.100', 'pending'],
    ['800.400.500', 'pendingLong'],
    ['100.400.500', 'pendingLong'],
    ['100.400.000', 'rejectedExternalRisk'],
    ['100.380.100', 'rejectedExternalRisk'],
    ['100.380.501', 'rejectedExternalRisk'],
    ['100.370.100', 'rejectedExternalRisk'],
    ['100.370.111', 'rejectedExternalRisk'],
    ['100.370.101', 'rejectedFormat'],
    ['100.380.101', 'rejectedRiskManagement'],
    ['100.380.201', 'rejectedRiskManagement'],
    ['100.380.306', 'rejectedRiskManagement'],
    ['100.380.401', 'rejected3ds'],
    ['100.390.101', 'rejected3ds'],
    ['800.400.200', 'rejected3ds'],
    ['800.400.100', 'rejectedAvs'],
    ['100.100.701', 'rejectedBlacklist'],
    ['100.100.101', 'rejectedAccount'],
    ['100.211.101', 'rejectedAccount'],
    ['100.900.500', 'rejectedFormat'],
    ['100.900.100', 'rejectedContact'],
    ['100.396.101', 'rejectedAsync'],
    ['100.396.103', 'rejectedAsync'],
    ['200.300.404', 'rejectedFormat'],
    ['800.900.300', 'rejectedFormat'],
    ['800.110.100', 'rejectedRiskValidation'],
    ['800.120.100', 'rejectedRiskValidation'],
    ['800.121.100', 'rejectedConfiguration'],
    ['800.100.151', 'rejectedBank'],
    ['800.100.157', 'rejectedBank'],
    ['800.800.102', 'rejectedBank'],
    ['800.800.400', 'rejectedSystem'],
    ['800.800.800', 'rejectedSystem'],
    ['999.999.999', 'rejectedSystem'],
    ['900.100.300', 'rejectedCommunication'],
    ['300.100.100', 'softDecline'],
    ['100.150.200', 'rejectedRegistration'],
    ['100.350.303', 'rejectedRegistration'],
    ['100.250.100', 'rejectedJob'],
    ['700.400.100', 'rejectedReference'],
    ['700.400.700', 'rejectedReference'],
    ['100.550.301', 'rejectedAmount'],
    ['100.800.100', 'rejectedAddress'],
    ['000.100.200', 'chargeback'],
    ['000.100.299', 'chargeback'],
    ['000.500.000', undefined],
    ['700.600.002', undefined],
    ['100x200.100', undefined], // #23's unescaped dot is fixed
    ['000.000.000 ', undefined],
    ['', undefined],
  ])('%s → %s', (code, group) => {
    expect(resultCodeGroup(code)).toBe(group);
  });
});

suite('predicates', () => {
  it.each<[string, 'success' | 'review' | 'pending' | 'rejected']>([
    ['000.000.000', 'success'],
    ['000.100.110', 'success'],
    ['000.100.112', 'success'],
    ['000.100.201', 'rejected'], // chargeback: starts with 000. but is not a success
    ['000.100.299', 'rejected'],
    ['000.400.020', 'review'],
    ['000.200.000', 'pending'],
    ['000.200.100', 'pending'],
    ['800.400.500', 'pending'],
    ['100.400.500', 'pending'],
    ['800.100.153', 'rejected'],
    ['800.120.100', 'rejected'],
    ['000.500.000', 'rejected'], // unclassified
    ['not-a-code', 'rejected'],
  ])('%s is %s', (code, expected) => {
    expect({
      success: isSuccess(code),
      review: isSuccessReview(code),
      pending: isPending(code),
      rejected: isRejected(code),
    }).toEqual({
      success: expected === 'success',
      review: expected === 'review',
      pending: expected === 'pending',
      rejected: expected === 'rejected',
    });
  });

  it('puts every catalogue code in exactly one of success / review / pending / rejected', () => {
    for (const [code] of RESULT_CODES) {
      const hits = [isSuccess(code), isSuccessReview(code), isPending(code), isRejected(code)].filter(
        Boolean,
      );
      expect(hits, code).toHaveLength(1);
    }
  });
});
