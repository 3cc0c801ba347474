import { describe, expect, it } from 'vitest';
import { PAN } from '../test-kit/fixtures/cards';
import { createLogger, type LoggerOptions, parseLogLevel } from './logger';

const CVV = '737';

function capture(options: LoggerOptions = {}) {
  const lines: string[] = [];
  const log = createLogger({
    env: {},
    now: () => new Date('2024-05-06T07:08:09.010Z'),
    ...options,
    stream: { write: (chunk: string) => lines.push(chunk) },
  });
  const entries = () => lines.map((l) => JSON.parse(l) as Record<string, unknown>);
  return { log, lines, entries };
}

describe('logger', () => {
  it('writes one JSON line per entry with time, level, msg and the fields', () => {
    const { log, lines, entries } = capture();
    log.info('payment created', { paymentId: 'p1', amount: '92.00' });
    log.warn('slow connector', { ms: 1200 });
    expect(lines).toHaveLength(2);
    for (const l of lines) expect(l).toMatch(/^\{.*\}\n$/);
    expect(entries()).toEqual([
      {
        time: '2024-05-06T07:08:09.010Z',
        level: 'info',
        msg: 'payment created',
        paymentId: 'p1',
        amount: '92.00',
      },
      { time: '2024-05-06T07:08:09.010Z', level: 'warn', msg: 'slow connector', ms: 1200 },
    ]);
  });

  it('keeps a message with newlines on one line', () => {
    const { log, lines } = capture();
    log.error('first\nsecond', { detail: 'a\nb' });
    expect(lines).toHaveLength(1);
    expect(lines[0]!.trimEnd()).not.toContain('\n');
  });

  it('does not let fields overwrite time, level or msg', () => {
    const { log, entries } = capture();
    log.info('real', { msg: 'fake', level: 'error', time: 'then' });
    expect(entries()[0]).toMatchObject({
      msg: 'real',
      level: 'info',
      'field.msg': 'fake',
      'field.level': 'error',
    });
  });

  it('filters by level, from the option or from LOG_LEVEL', () => {
    const a = capture({ level: 'warn' });
    a.log.debug('d');
    a.log.info('i');
    a.log.warn('w');
    a.log.error('e');
    expect(a.entries().map((e) => e.level)).toEqual(['warn', 'error']);

    const b = capture({ env: { LOG_LEVEL: 'DEBUG' } });
    b.log.debug('d');
    expect(b.entries().map((e) => e.level)).toEqual(['debug']);
    expect(b.log.enabled('debug')).toBe(true);

    const c = capture();
    c.log.debug('d');
    c.log.info('i');
    expect(c.entries().map((e) => e.msg)).toEqual(['i']);

    const d = capture({ env: { LOG_LEVEL: 'silent' } });
    d.log.error('e');
    expect(d.lines).toEqual([]);
  });

  it('warns about an unknown LOG_LEVEL and uses info', () => {
    const { log, entries } = capture({ env: { LOG_LEVEL: 'loud' } });
    expect(log.level).toBe('info');
    expect(entries()).toEqual([
      expect.objectContaining({ level: 'warn', msg: 'Unknown LOG_LEVEL, using info', logLevel: 'loud' }),
    ]);
  });

  it('adds child bindings to every entry', () => {
    const { log, entries } = capture();
    const child = log.child({ requestId: 'r1' }).child({ merchantId: 'm1', token: 'abc' });
    child.info('hello', { step: 1 });
    expect(entries()[0]).toMatchObject({ requestId: 'r1', merchantId: 'm1', token: '***', step: 1 });
  });

  it('survives a stream that throws', () => {
    const log = createLogger({
      env: {},
      stream: {
        write: () => {
          throw new Error('EPIPE');
        },
      },
    });
    expect(() => log.error('x')).not.toThrow();
  });
});

describe('logger never writes card data', () => {
  const assertClean = (line: string) => {
    expect(line).not.toContain(PAN);
    expect(line).not.toMatch(/\d{12,}/);
    expect(line).not.toMatch(/cvv"?\s*[:=]\s*"?737/i);
  };

  it('nested objects', () => {
    const { log, lines, entries } = capture();
    log.info('request', {
      body: { card: { number: PAN, cvv: CVV, holder: 'Jane Doe' }, amount: '12.50' },
      'card.number': PAN,
      'card.cvv': CVV,
      authentication: { userId: 'u1', password: 'hunter2' },
      headers: { authorization: 'Bearer T0tally5ecret=' },
    });
    for (const l of lines) assertClean(l);
    expect(lines[0]).not.toContain('hunter2');
    expect(lines[0]).not.toContain('T0tally5ecret');
    const e = entries()[0]!;
    expect(e.body).toEqual({
      card: { number: '420000******0000', cvv: '***', holder: 'Jane Doe' },
      amount: '12.50',
    });
    expect(e.authentication).toEqual({ userId: 'u1', password: '***' });
  });

  it('arrays', () => {
    const { log, lines } = capture();
    log.info('batch', {
      cards: [PAN, '4200 0000 0000 0000', { number: PAN, cvv: CVV }],
      registrations: [[{ card: { number: '5454545454545454', cvv: CVV } }]],
    });
    assertClean(lines[0]!);
    expect(lines[0]).not.toContain('5454545454545454');
    expect(lines[0]).not.toContain('4200 0000 0000 0000');
  });

  it('URLs in the message and in fields', () => {
    const { log, lines } = capture();
    log.info(`POST /v1/payments?card.number=${PAN}&card.cvv=${CVV}`, {
      url: `/v1/payments?card.number=${PAN}`,
      referer: `https://shop.example/pay?entityId=8a8294174b7ecb28014b9699220015cc&card%5Bnumber%5D=${PAN}`,
      parsed: new URL(`https://gw.example/v1/payments?card.number=${PAN}&card.cvv=${CVV}`),
    });
    assertClean(lines[0]!);
    expect(lines[0]).toContain('/v1/payments?card.number=420000******0000');
    expect(lines[0]).toContain('8a8294174b7ecb28014b9699220015cc');
  });

  it('error objects, their stack and their cause', () => {
    const { log, lines, entries } = capture();
    const cause = new Error(`issuer refused ${PAN}`);
    const err = Object.assign(new Error(`cannot charge card ${PAN} with cvv ${CVV}`, { cause }), {
      request: { card: { number: PAN, cvv: CVV } },
    });
    log.error('payment failed', { err });
    assertClean(lines[0]!);
    const logged = entries()[0]!.err as Record<string, unknown>;
    expect(logged.message).toBe(`cannot charge card 420000******0000 with cvv ${CVV}`);
    expect(logged.stack).toEqual(expect.stringContaining('420000******0000'));
    expect(logged.request).toEqual({ card: { number: '420000******0000', cvv: '***' } });
  });

  it('a raw form body and a JSON body logged as strings', () => {
    const { log, lines } = capture();
    log.debug('raw', {
      form: `entityId=x&amount=1.00&card.number=${PAN}&card.cvv=${CVV}&paymentType=DB`,
      json: JSON.stringify({ card: { number: PAN, cvv: CVV } }),
    });
    expect(lines).toHaveLength(0);
    const { log: verbose, lines: vLines } = capture({ level: 'debug' });
    verbose.debug('raw', {
      form: `entityId=x&amount=1.00&card.number=${PAN}&card.cvv=${CVV}&paymentType=DB`,
      json: JSON.stringify({ card: { number: PAN, cvv: CVV } }),
    });
    assertClean(vLines[0]!);
    expect(vLines[0]).toContain('card.cvv=***');
  });
});

describe('parseLogLevel', () => {
  it('accepts the levels and common aliases in any case', () => {
    expect(parseLogLevel('INFO')).toBe('info');
    expect(parseLogLevel(' warning ')).toBe('warn');
    expect(parseLogLevel('trace')).toBe('debug');
    expect(parseLogLevel('fatal')).toBe('error');
    expect(parseLogLevel('off')).toBe('silent');
    expect(parseLogLevel('verbose')).toBeUndefined();
    expect(parseLogLevel(undefined)).toBeUndefined();
  });
});
