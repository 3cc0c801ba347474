// @vitest-environment happy-dom
import { describe, expect, it } from 'vitest';
import { isRejected, RESULT_CODES } from '../../../shared/result-codes';
import type { Session } from '../../core/api';
import { challengeWindow, readSettings } from '../../core/options';
import {
  afterFlow,
  buildForm,
  CHALLENGE_SIZES,
  cancelledByShopper,
  challengeSize,
  isAccepted,
  isCompletion,
  RETURN_MODE,
  redirectForm,
  redirectMode,
} from './redirect';

const GW = 'https://gw.test';
const PAGE = 'https://shop.test/checkout';

describe('where a redirect opens', () => {
  it('card challenges in the modal unless paymentTarget is set', () => {
    expect(redirectMode(readSettings({}), 'VISA')).toBe('modal');
    expect(redirectMode(readSettings({ paymentTarget: '_top' }), 'VISA')).toBe('full');
    expect(redirectMode(readSettings({ shopperResultTarget: '_top' }), 'MASTER')).toBe('modal');
  });

  it('redirect brands as the whole page unless inlineFlow lists them (array or string)', () => {
    expect(redirectMode(readSettings({}), 'PAYPAL')).toBe('full');
    expect(redirectMode(readSettings({ inlineFlow: ['PAYPAL'] }), 'PAYPAL')).toBe('modal');
    expect(redirectMode(readSettings({ inlineFlow: ['PAYPAL'] }), 'SOFORTUEBERWEISUNG')).toBe('full');
    const listed = readSettings({ inlineFlow: 'paypal, KLARNA_PAYMENTS_PAYLATER  WALLETD_CONTINUE' });
    expect(listed.inlineFlow).toEqual(['PAYPAL', 'KLARNA_PAYMENTS_PAYLATER', 'WALLETD_CONTINUE']);
    expect(redirectMode(listed, 'KLARNA_PAYMENTS_PAYLATER')).toBe('modal');
    expect(redirectMode(listed, 'WALLETD_CONTINUE')).toBe('modal');
    // inlineFlow wins over paymentTarget for the brands it lists.
    expect(redirectMode(readSettings({ inlineFlow: 'PAYPAL', paymentTarget: '_top' }), 'PAYPAL')).toBe(
      'modal',
    );
  });
});

describe('challenge window', () => {
  it('reads browser.threeDChallengeWindow as 1-5, number or string', () => {
    expect([1, 2, 3, 4, 5].map(challengeWindow)).toEqual([1, 2, 3, 4, 5]);
    expect(['1', '03', ' 5 '].map(challengeWindow)).toEqual([1, 3, 5]);
    for (const bad of [0, 6, 2.5, '7', '', 'x', null, undefined, {}])
      expect(challengeWindow(bad)).toBeUndefined();
    expect(readSettings({ browser: { threeDChallengeWindow: '2' } }).challengeWindow).toBe(2);
    expect(readSettings({}).challengeWindow).toBeUndefined();
  });

  it('keeps the page’s size, else the full window when narrow, else 500×600', () => {
    expect(challengeSize(1, { innerWidth: 320 })).toBe(1);
    expect(challengeSize(undefined, { innerWidth: 599 })).toBe(5);
    expect(challengeSize(undefined, { innerWidth: 1024 })).toBe(3);
    expect(CHALLENGE_SIZES).toEqual({ 1: [250, 400], 2: [390, 400], 3: [500, 600], 4: [600, 400] });
  });
});

describe('the redirect form', () => {
  const redirect = {
    url: `${GW}/v1/simulator/3ds?x=1`,
    parameters: [
      { name: 'MD', value: 'abc' },
      { name: 'TermUrl', value: 'https://gw.test/term' },
    ],
  };

  it('POSTs the parameters, and returnMode only when asked', () => {
    expect(redirectForm(redirect, PAGE, [RETURN_MODE])).toEqual({
      action: `${GW}/v1/simulator/3ds?x=1`,
      method: 'post',
      fields: [
        ['MD', 'abc'],
        ['TermUrl', 'https://gw.test/term'],
        ['returnMode', 'message'],
      ],
    });
    expect(redirectForm(redirect, PAGE)!.fields.map(([n]) => n)).toEqual(['MD', 'TermUrl']);
    // The gateway's own returnMode is not sent twice.
    const own = { ...redirect, parameters: [{ name: 'returnMode', value: 'message' }] };
    expect(redirectForm(own, PAGE, [RETURN_MODE])!.fields).toEqual([['returnMode', 'message']]);
  });

  it('keeps a GET address’s query as fields, and refuses what is not http(s)', () => {
    const get = redirectForm({ ...redirect, method: 'get' }, PAGE, [RETURN_MODE])!;
    expect(get.method).toBe('get');
    expect(get.action).toBe(`${GW}/v1/simulator/3ds`);
    expect(get.fields[0]).toEqual(['x', '1']);
    expect(redirectForm({ url: 'javascript:alert(1)' }, PAGE)).toBeUndefined();
    expect(redirectForm({ url: 'http://[' }, PAGE)).toBeUndefined();
    expect(redirectForm({}, PAGE)!.action).toBe(PAGE);
  });

  it('builds a hidden form with action, method, target and hidden fields', () => {
    const form = buildForm(document, redirectForm(redirect, PAGE, [RETURN_MODE])!, 'wpwl-target-7');
    expect(form.getAttribute('action')).toBe(`${GW}/v1/simulator/3ds?x=1`);
    expect(form.method).toBe('post');
    expect(form.target).toBe('wpwl-target-7');
    expect(form.hidden).toBe(true);
    const inputs = Array.from(form.querySelectorAll('input'));
    expect(inputs.every((i) => i.type === 'hidden')).toBe(true);
    expect(inputs.map((i) => [i.name, i.value])).toEqual([
      ['MD', 'abc'],
      ['TermUrl', 'https://gw.test/term'],
      ['returnMode', 'message'],
    ]);
    expect(buildForm(document, redirectForm(redirect, PAGE)!).hasAttribute('target')).toBe(false);
  });
});

describe('the gateway’s completion message', () => {
  const frame = {} as Window;
  const data = { source: 'wpwl-gateway', type: 'async-complete' };
  const event = (init: MessageEventInit) => new MessageEvent('message', init);

  it('is accepted only from the modal’s window with the gateway’s origin', () => {
    expect(isCompletion(event({ data, origin: GW, source: frame }), GW, frame)).toBe(true);
    expect(isCompletion(event({ data, origin: 'https://evil.test', source: frame }), GW, frame)).toBe(false);
    expect(isCompletion(event({ data, origin: 'https://gw.test:8443', source: frame }), GW, frame)).toBe(
      false,
    );
    expect(isCompletion(event({ data, origin: GW, source: {} as Window }), GW, frame)).toBe(false);
    expect(isCompletion(event({ data, origin: GW, source: null }), GW, null)).toBe(false);
    expect(isCompletion(event({ data, origin: GW, source: frame }), GW, undefined)).toBe(false);
  });

  it('must say what it is', () => {
    for (const bad of [null, 'async-complete', { source: 'wpwl-gateway' }, { ...data, source: 'other' }]) {
      expect(isCompletion(event({ data: bad, origin: GW, source: frame }), GW, frame)).toBe(false);
    }
  });
});

describe('after a modal flow', () => {
  const session = (over: Partial<Session>): Session => ({
    id: 'X',
    kind: 'payment',
    state: 'open',
    registrations: [],
    ...over,
  });

  it('leaves on a completed checkout that was not rejected, retries an open one', () => {
    const done = (code: string) => afterFlow(session({ state: 'completed', lastResult: { code } }));
    expect(done('000.100.110')).toBe('leave');
    expect(done('000.000.000')).toBe('leave');
    expect(done('000.400.000')).toBe('leave');
    expect(done('000.200.000')).toBe('leave');
    expect(afterFlow(session({ state: 'completed' }))).toBe('leave');
    expect(done('100.390.112')).toBe('closed');
    expect(afterFlow(session({ state: 'open', lastResult: { code: '100.396.101' } }))).toBe('retry');
    expect(afterFlow(session({ state: 'open' }))).toBe('retry');
    expect(afterFlow(session({ state: 'expired' }))).toBe('closed');
    expect(afterFlow(undefined)).toBe('unknown');
  });

  it('tells a cancel on the gateway page from a decline', () => {
    expect(cancelledByShopper(session({ state: 'open', lastResult: { code: '100.396.101' } }))).toBe(true);
    expect(cancelledByShopper(session({ state: 'open', lastResult: { code: '800.400.200' } }))).toBe(false);
    expect(cancelledByShopper(session({ state: 'open', lastResult: { code: '100.396.103' } }))).toBe(false);
    expect(cancelledByShopper(session({ state: 'open' }))).toBe(false);
    expect(cancelledByShopper(undefined)).toBe(false);
  });

  it('accepts exactly the codes the shared classifier does not reject', () => {
    for (const [code] of RESULT_CODES) expect(isAccepted(code), code).toBe(!isRejected(code));
    for (const code of ['', 'abc', '000.100.1100', '999.999.999']) {
      expect(isAccepted(code), code).toBe(!isRejected(code));
    }
  });
});
