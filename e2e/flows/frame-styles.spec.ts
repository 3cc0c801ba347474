/**
 * The card-field frames' own styles and the page's `iframeStyles`: the frame's rules come with
 * its script (a constructed stylesheet, no stylesheet file of its own), the host's placeholder
 * style is added to them, and the frame's CSP (`style-src 'self'`) refuses nothing.
 */
import { expect, test } from '../support/fixtures';

const OPTIONS = `window.wpwlOptions = {
  style: 'card',
  iframeStyles: {
    'card-number-placeholder': { color: 'rgb(1, 2, 3)' },
    'cvv-input': { color: 'rgb(4, 5, 6)' },
  },
};`;

test('the frames carry their own styles and the page\u2019s iframeStyles', async ({
  shop,
  card,
  page,
  browserErrors,
}) => {
  await page.route('**/options.js*', (route) =>
    route.fulfill({ status: 200, contentType: 'text/javascript; charset=utf-8', body: OPTIONS }),
  );
  const frameFiles: string[] = [];
  page.on('request', (request) => {
    if (request.url().includes('/v1/widget/frames/')) frameFiles.push(new URL(request.url()).pathname);
  });
  await shop.open();
  await card.ready();

  const number = card.frameInput('cardNumber');
  // The frame's own rules: a borderless input filling the frame, 16px text, on the background of
  // the page's own fields (the holder's), so a dark theme's text is read against a dark field.
  const own = await number.evaluate((input) => {
    const s = getComputedStyle(input);
    return { border: s.borderTopWidth, fontSize: s.fontSize, background: s.backgroundColor };
  });
  const holderBackground = await page
    .locator('.wpwl-control-cardHolder')
    .evaluate((input) => getComputedStyle(input).backgroundColor);
  expect(own).toEqual({ border: '0px', fontSize: '16px', background: holderBackground });
  // The page's placeholder colour, added to the frame's stylesheet.
  expect(await number.evaluate((input) => getComputedStyle(input, '::placeholder').color)).toBe(
    'rgb(1, 2, 3)',
  );
  expect(await card.frameInput('cvv').evaluate((input) => getComputedStyle(input).color)).toBe(
    'rgb(4, 5, 6)',
  );
  // The document and its one script, nothing else.
  expect(frameFiles.filter((path) => path.endsWith('.css'))).toEqual([]);
  expect(browserErrors.seen).toEqual([]);
});
