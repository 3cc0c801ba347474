/**
 * The runner's own checks: a corpus whose checks could not fail would pass every gateway. Each
 * expectation is shown to catch the difference it names, and each encoding to write what its
 * client writes.
 */
import { describe, expect, it } from 'vitest';
import type { Entry } from './entry';
import { check, corpusRunner, encodeBody, type WireAnswer } from './runner';

const answer = (status: number, body: unknown): WireAnswer => ({ status, body, text: JSON.stringify(body) });
const paid = answer(200, {
  id: 'a'.repeat(32),
  result: { code: '000.100.110', description: 'ok' },
  card: { bin: '420000', regulatedFlag: 'N' },
  redirect: { url: 'https://x.example', parameters: [] },
});

describe('check', () => {
  it('passes an answer that is what the entry expects', () => {
    expect(
      check(
        {
          status: 200,
          resultCode: '000.100.110',
          resultCodePattern: '^000\\.100\\.1',
          has: ['id', 'redirect.url'],
          equals: { 'card.bin': '420000' },
          matches: { 'card.regulatedFlag': '^[YN]$' },
          strings: true,
          omits: ['4200000000000000'],
        },
        paid,
      ),
    ).toEqual([]);
  });

  it.each([
    ['status', { status: 400 }, 'HTTP 200, expected 400'],
    [
      'resultCode',
      { status: 200, resultCode: '000.200.000' },
      'result.code 000.100.110, expected 000.200.000',
    ],
    ['resultCodePattern', { status: 200, resultCodePattern: '^000\\.200' }, 'expected /^000\\.200/'],
    ['has', { status: 200, has: ['registrationId'] }, 'registrationId missing'],
    ['equals', { status: 200, equals: { 'card.bin': '400000' } }, 'card.bin = "420000", expected "400000"'],
    ['matches', { status: 200, matches: { 'card.bin': '^5' } }, 'card.bin = "420000", expected /^5/'],
    ['omits', { status: 200, omits: ['420000'] }, 'the answer contains 420000'],
    [
      'parameterErrors',
      { status: 200, parameterErrors: ['amount'] },
      'parameterErrors name [], expected ["amount"]',
    ],
  ] as const)('reports a difference in %s', (_what, expectation, problem) => {
    const problems = check(expectation, paid);
    expect(problems.join(' | ')).toContain(problem);
    // and says what the gateway answered, for the report
    expect(problems.at(-1)).toBe('answer: HTTP 200 000.100.110 "ok"');
  });

  it('reports every leaf that is not a string', () => {
    const problems = check(
      { status: 200, strings: true },
      answer(200, {
        result: { code: '000.100.110', description: 'ok' },
        card: { regulatedFlag: false },
        n: 1,
      }),
    );
    expect(problems).toEqual(
      expect.arrayContaining(['not a string: card.regulatedFlag = false', 'not a string: n = 1']),
    );
  });
});

describe('encodeBody', () => {
  const fields = [
    ['customParameters[SHOPPER_pluginId]', 'activemerchant'],
    ['customer.phone', '(?!?)555-5555'],
    ['card.holder', 'Jane Jones'],
  ] as const;

  it('form: names and values percent-encoded, a space as +', () => {
    expect(encodeBody(fields, 'form')).toBe(
      'customParameters%5BSHOPPER_pluginId%5D=activemerchant&customer.phone=%28%3F%21%3F%29555-5555&card.holder=Jane+Jones',
    );
  });

  it("raw-names: names as they are, values as Ruby's CGI.escape writes them", () => {
    expect(encodeBody(fields, 'raw-names')).toBe(
      'customParameters[SHOPPER_pluginId]=activemerchant&customer.phone=%28%3F%21%3F%29555-5555&card.holder=Jane+Jones',
    );
  });

  it("raw: as curl's -d sends them, nothing escaped", () => {
    expect(encodeBody(fields, 'raw')).toBe(
      'customParameters[SHOPPER_pluginId]=activemerchant&customer.phone=(?!?)555-5555&card.holder=Jane Jones',
    );
  });
});

describe('corpusRunner', () => {
  const credentials = {
    entityId: 'e'.repeat(32),
    token: Buffer.from(`${'u'.repeat(32)}|secret`).toString('base64'),
  };
  const prior: Entry = {
    name: 'prior',
    source: { repo: 'o/r', path: 'p', note: '' },
    method: 'POST',
    path: '/v1/registrations',
    body: [['entityId', '{entityId}']],
    expect: { status: 200 },
  };
  const entry: Entry = {
    name: 'entry',
    source: { repo: 'o/r', path: 'p', note: '' },
    method: 'POST',
    path: '/v1/registrations/{registrationId}/payments',
    body: [
      ['authentication.userId', '{userId}'],
      ['authentication.password', '{password}'],
    ],
    setup: { prior: 'prior', auth: 'body' },
    expect: { status: 200 },
  };

  it('sends the prior first, fills the placeholders from its answer and the credentials', async () => {
    const sent: { method: string; path: string; body?: string; auth?: string }[] = [];
    const wire = async (
      method: string,
      path: string,
      body: string | undefined,
      headers: Record<string, string>,
    ) => {
      sent.push({
        method,
        path,
        ...(body === undefined ? {} : { body }),
        ...(headers.Authorization ? { auth: headers.Authorization } : {}),
      });
      return answer(200, { id: 'r'.repeat(32), result: { code: '000.100.110', description: 'ok' } });
    };
    const { problems } = await corpusRunner(wire, credentials, [prior, entry]).run(entry);
    expect(problems).toEqual([]);
    expect(sent).toEqual([
      {
        method: 'POST',
        path: '/v1/registrations',
        body: `entityId=${'e'.repeat(32)}`,
        auth: `Bearer ${credentials.token}`,
      },
      {
        method: 'POST',
        path: `/v1/registrations/${'r'.repeat(32)}/payments`,
        body: `authentication.userId=${'u'.repeat(32)}&authentication.password=secret`,
      },
    ]);
  });

  it('refuses a placeholder nothing fills, and a prior that gave no id', async () => {
    const refused = async () => answer(400, { result: { code: '200.300.404', description: 'invalid' } });
    await expect(corpusRunner(refused, credentials, [prior, entry]).run(entry)).rejects.toThrow(
      'prior "prior" of "entry" gave no id: HTTP 400 200.300.404 "invalid"',
    );
    const lonely = { ...entry, setup: { auth: 'body' as const } };
    await expect(corpusRunner(refused, credentials, [lonely]).run(lonely)).rejects.toThrow(
      'nothing fills {registrationId}',
    );
  });
});
