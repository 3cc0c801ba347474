import { describe, expect, it } from 'vitest';
import { COUNTRIES } from '../../../shared/geo';
import { COUNTRY_CODES, countryOptions } from './countries';

describe('billing countries', () => {
  it('are shared/geo’s alpha-2 codes, every one and in its order', () => {
    expect(COUNTRY_CODES).toEqual(COUNTRIES.map((c) => c.alpha2));
  });

  it('carry their names in the shopper’s language, sorted by name', () => {
    const de = countryOptions('de');
    expect(de).toHaveLength(COUNTRIES.length);
    expect(de).toContainEqual(['DE', 'Deutschland']);
    const names = de.map(([, name]) => name);
    expect(names).toEqual([...names].sort((a, b) => a.localeCompare(b, 'de')));
  });
});
