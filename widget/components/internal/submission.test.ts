import { describe, expect, it } from 'vitest';
import { customer } from '../../../shared/params/catalogue/customer';
import { checkFormat } from '../../../shared/params/formats';
import type { Group, Leaf } from '../../../shared/params/nodes';
import { browserFields, shopperResultUrl, withSubmissionFields } from './submission';

const CHROME =
  'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36';

/** A window with what browserFields reads. */
function win(
  over: { language?: string; java?: boolean | 'throws'; screen?: object; innerWidth?: number } = {},
): Window {
  return {
    innerWidth: over.innerWidth ?? 1280,
    navigator: {
      userAgent: CHROME,
      language: over.language ?? 'de-DE',
      javaEnabled:
        over.java === undefined
          ? undefined
          : () => {
              if (over.java === 'throws') throw new Error('no');
              return over.java;
            },
    },
    screen: over.screen ?? { height: 1080, width: 1920, colorDepth: 24 },
    document: { baseURI: 'https://shop.test/pay/checkout.html' },
  } as unknown as Window;
}

/** 10:00 UTC; getTimezoneOffset as a browser two hours ahead of UTC (Berlin in summer) says it. */
const summer = () => {
  const d = new Date('2030-07-01T10:00:00Z');
  d.getTimezoneOffset = () => -120;
  return d;
};

describe('browser data for 3-D Secure v2', () => {
  it('comes from the page’s window: what a browser accepts for a document, user agent, language, screen, colour depth, time zone, Java, challenge window', () => {
    expect(Object.fromEntries(browserFields(win(), summer, undefined))).toEqual({
      // What the browser's own navigation to the challenge page accepts: never the fetch's application/json.
      'customer.browser.acceptHeader': 'text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8',
      'customer.browser.userAgent': CHROME,
      'customer.browser.language': 'de-DE',
      'customer.browser.screenHeight': '1080',
      'customer.browser.screenWidth': '1920',
      'customer.browser.screenColorDepth': '24',
      'customer.browser.timezone': '-120',
      'customer.browser.javaEnabled': 'false',
      // The size the widget will open the challenge in: 3 (500 × 600) on a wide window.
      'customer.browser.challengeWindow': '3',
    });
  });

  it('fits every field the catalogue knows, for the challenge window the full window on a narrow page', () => {
    const fields = browserFields(win({ innerWidth: 390 }), summer, undefined);
    expect(Object.fromEntries(fields)['customer.browser.challengeWindow']).toBe('5');
    const browser = ((customer.fields.customer as Group).fields.browser as Group).fields;
    for (const [name, value] of fields) {
      const leaf = browser[name.slice('customer.browser.'.length)] as Leaf | undefined;
      expect(leaf, name).toBeDefined();
      expect(checkFormat(leaf!.format, value), `${name}=${value}`).toBeUndefined();
    }
  });

  it('cuts the language to 8 characters, tells Java only when enabled, adds the challenge window when set', () => {
    const fields = Object.fromEntries(browserFields(win({ language: 'zh-Hant-TW', java: true }), summer, 4));
    expect(fields['customer.browser.language']).toBe('zh-Hant');
    expect(fields['customer.browser.javaEnabled']).toBe('true');
    expect(fields['customer.browser.challengeWindow']).toBe('4');
    expect(
      Object.fromEntries(browserFields(win({ java: 'throws' }), summer, undefined))[
        'customer.browser.javaEnabled'
      ],
    ).toBe('false');
  });

  it('leaves out screen values that are missing or do not fit', () => {
    const fields = Object.fromEntries(
      browserFields(
        win({ screen: { height: 1234567, width: Number.NaN, colorDepth: 100 } }),
        summer,
        undefined,
      ),
    );
    expect(fields['customer.browser.screenHeight']).toBeUndefined();
    expect(fields['customer.browser.screenWidth']).toBeUndefined();
    expect(fields['customer.browser.screenColorDepth']).toBeUndefined();
    // Positive when local time is behind UTC (New York in winter).
    const winter = () => Object.assign(new Date(), { getTimezoneOffset: () => 300 });
    expect(Object.fromEntries(browserFields(win(), winter, undefined))['customer.browser.timezone']).toBe(
      '300',
    );
  });
});

describe('shopperResultUrl', () => {
  it('is the form’s action made absolute, and nothing without one', () => {
    const base = 'https://shop.test/pay/checkout.html';
    expect(shopperResultUrl('/result?order=7', base)).toBe('https://shop.test/result?order=7');
    expect(shopperResultUrl('done', base)).toBe('https://shop.test/pay/done');
    expect(shopperResultUrl('https://other.test/r', base)).toBe('https://other.test/r');
    expect(shopperResultUrl(null, base)).toBeUndefined();
    expect(shopperResultUrl('  ', base)).toBeUndefined();
    expect(shopperResultUrl('javascript:alert(1)', base)).toBeUndefined();
  });
});

describe('every submission', () => {
  const env = { win: win(), now: summer, action: '/result', challengeWindow: undefined };

  it('adds browser data and shopperResultUrl after the form’s fields', () => {
    const fields = withSubmissionFields(env, [['paymentBrand', 'PAYPAL']]);
    expect(fields[0]).toEqual(['paymentBrand', 'PAYPAL']);
    expect(fields).toContainEqual(['shopperResultUrl', 'https://shop.test/result']);
    expect(fields).toContainEqual(['customer.browser.screenWidth', '1920']);
    expect(withSubmissionFields({ ...env, action: null }, []).some(([n]) => n === 'shopperResultUrl')).toBe(
      false,
    );
  });

  it('never overrides what the page’s form holds', () => {
    const fields = withSubmissionFields(env, [
      ['customer.browser.language', 'fr'],
      ['shopperResultUrl', 'https://shop.test/own'],
    ]);
    expect(fields.filter(([n]) => n === 'customer.browser.language')).toEqual([
      ['customer.browser.language', 'fr'],
    ]);
    expect(fields.filter(([n]) => n === 'shopperResultUrl')).toEqual([
      ['shopperResultUrl', 'https://shop.test/own'],
    ]);
  });
});
