import { describe, expect, it } from 'vitest';
import { alpha2Of, alpha3Of, COUNTRIES, isCountry2, isCountry3, isCountryNumeric, numericOf } from './index';

describe('ISO 3166-1 countries', () => {
  it('holds exactly the 249 officially assigned codes, unique in every column', () => {
    expect(COUNTRIES).toHaveLength(249);
    expect(new Set(COUNTRIES.map((c) => c.alpha2)).size).toBe(249);
    expect(new Set(COUNTRIES.map((c) => c.alpha3)).size).toBe(249);
    expect(new Set(COUNTRIES.map((c) => c.numeric)).size).toBe(249);
    for (const c of COUNTRIES) {
      expect(c.alpha2).toMatch(/^[A-Z]{2}$/);
      expect(c.alpha3).toMatch(/^[A-Z]{3}$/);
      expect(c.numeric).toMatch(/^[0-9]{3}$/);
    }
    const alpha2 = COUNTRIES.map((c) => c.alpha2);
    expect([...alpha2].sort()).toEqual(alpha2);
  });

  it.each([
    ['DE', 'DEU', '276'],
    ['AT', 'AUT', '040'],
    ['US', 'USA', '840'],
    ['GB', 'GBR', '826'],
    ['CH', 'CHE', '756'],
    ['FR', 'FRA', '250'],
    ['NL', 'NLD', '528'],
    ['JP', 'JPN', '392'],
    ['AX', 'ALA', '248'],
    ['AQ', 'ATA', '010'],
    ['TW', 'TWN', '158'],
    ['SS', 'SSD', '728'],
    ['CW', 'CUW', '531'],
    ['SX', 'SXM', '534'],
    ['BQ', 'BES', '535'],
    ['ZW', 'ZWE', '716'],
  ])('accepts %s / %s / %s', (alpha2, alpha3, numeric) => {
    expect(isCountry2(alpha2)).toBe(true);
    expect(isCountry3(alpha3)).toBe(true);
    expect(isCountryNumeric(numeric)).toBe(true);
    expect(alpha3Of(alpha2)).toBe(alpha3);
    expect(numericOf(alpha2)).toBe(numeric);
    expect(alpha2Of(alpha3)).toBe(alpha2);
    expect(alpha2Of(numeric)).toBe(alpha2);
  });

  it.each([
    'XX',
    'UK', // exceptionally reserved, not officially assigned
    'EU', // exceptionally reserved
    'UN', // exceptionally reserved
    'XK', // user-assigned (Kosovo), not officially assigned
    'AA', // user-assigned
    'ZZ', // user-assigned
    'YU', // transitionally reserved (Yugoslavia)
    'AN', // transitionally reserved (Netherlands Antilles)
    'de',
    'De',
    'dE',
    'D',
    'DEU',
    '',
    ' DE',
    'DE ',
    '__proto__',
  ])('rejects alpha-2 %j', (code) => {
    expect(isCountry2(code)).toBe(false);
    expect(alpha3Of(code)).toBeUndefined();
    expect(numericOf(code)).toBeUndefined();
  });

  it.each(['deu', 'DE', 'XXX', 'GBX', 'UKR ', 'ANT', 'YUG', 'XKX', ''])('rejects alpha-3 %j', (code) => {
    expect(isCountry3(code)).toBe(false);
  });

  it.each(['40', '0040', '276 ', '000', '999', '-40', 'abc', ''])('rejects numeric %j', (code) => {
    expect(isCountryNumeric(code)).toBe(false);
  });

  it('rejects non-strings', () => {
    for (const v of [276, 40, null, undefined, {}, ['DE']]) {
      expect(isCountry2(v)).toBe(false);
      expect(isCountry3(v)).toBe(false);
      expect(isCountryNumeric(v)).toBe(false);
    }
  });
});
