import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { renderParameterDocs } from './docs';

describe('parameter docs', () => {
  const docs = renderParameterDocs();

  it('are derived from the catalogue and checked in up to date (run npm run docs)', () => {
    expect(readFileSync(new URL('../../docs/parameters.md', import.meta.url), 'utf8')).toBe(docs);
  });

  it.each([
    ['card.number', '8 to 32 digits'],
    ['cart.items[n].quantity', 'up to 12 integer digits'],
    ['customParameters[key]', 'key: 3 to 64 letters'],
    ['shipping.customer.givenName', ''],
    ['merchant.billing.mobile', 'phone number'],
  ])('list %s', (name, format) => {
    const row = docs.split('\n').find((line) => line.startsWith(`| ${name} |`));
    expect(row).toBeDefined();
    expect(row).toContain(format);
  });
});
