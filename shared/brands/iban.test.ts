import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  IBAN_LENGTHS,
  type IbanCheck,
  ibanBankCode,
  ibanLengthOf,
  maskIban,
  validateBic,
  validateIban,
} from './iban';

/** Reference MOD 97-10 via bigint (tests only; the module itself avoids bigint). */
function referenceCheckDigits(country: string, bban: string): string {
  const numeric = [...`${bban}${country}00`].map((c) => parseInt(c, 36).toString()).join('');
  return String(98n - (BigInt(numeric) % 97n)).padStart(2, '0');
}

describe('validateIban', () => {
  it.each([
    // Documented test data.
    ['DE23100000001234567890', 'DE'],
    ['DE14940593100000012346', 'DE'],
    // SWIFT registry examples.
    ['DE89370400440532013000', 'DE'],
    ['AT611904300234573201', 'AT'],
    ['NL91ABNA0417164300', 'NL'],
    ['FR1420041010050500013M02606', 'FR'],
    ['GB29NWBK60161331926819', 'GB'],
    ['ES9121000418450200051332', 'ES'],
    ['IT60X0542811101000000123456', 'IT'],
    ['BE68539007547034', 'BE'],
    ['CH9300762011623852957', 'CH'],
    ['NO9386011117947', 'NO'],
    ['MT84MALT011000012345MTLCAST001S', 'MT'],
    ['LC55HEMM000100010012001200023015', 'LC'],
    ['RU0304452522540817810538091310419', 'RU'],
  ])('accepts %s', (iban, country) => {
    expect(validateIban(iban)).toEqual({ ok: true, country, normalized: iban });
  });

  it.each([
    ['DE89 3704 0044 0532 0130 00', 'DE89370400440532013000'],
    ['de89370400440532013000', 'DE89370400440532013000'],
    ['  gb29 nwbk 6016 1331 9268 19 ', 'GB29NWBK60161331926819'],
    ['FR14\t2004 1010 0505 0001 3m02 606', 'FR1420041010050500013M02606'],
  ])('normalises %j', (input, normalized) => {
    const result = validateIban(input);
    expect(result.ok && result.normalized).toBe(normalized);
  });

  it.each<[string, Extract<IbanCheck, { ok: false }>['reason']]>([
    ['', 'format'],
    ['DE', 'format'],
    ['DE89', 'format'],
    ['D189370400440532013000', 'format'],
    ['DEXX370400440532013000', 'format'],
    ['DE89-3704-0044-0532-0130-00', 'format'],
    ['DE89370400440532013000Ä', 'format'],
    ['12DE370400440532013000', 'format'],
    [`DE89${'1'.repeat(31)}`, 'format'],
    ['XX89370400440532013000', 'country'],
    ['US64SVBKUS6S3300958879', 'country'],
    ['DE8937040044053201300', 'length'],
    ['DE893704004405320130000', 'length'],
    ['NL91ABNA04171643001', 'length'],
    ['AT61190430023457320', 'length'],
    ['DE88370400440532013000', 'checksum'],
    ['DE89370400440532013001', 'checksum'],
    ['DE89370400440532031000', 'checksum'],
    ['GB29NWBK60161331926818', 'checksum'],
    ['NL91ABNB0417164300', 'checksum'],
    ['FR1420041010050500013M02607', 'checksum'],
    ['BE68539007547035', 'checksum'],
  ])('rejects %j: %s', (iban, reason) => {
    expect(validateIban(iban)).toEqual({ ok: false, reason });
  });

  it('rejects check digits 00, 01 and 99 even when the remainder is 1', () => {
    // BBAN chosen so that 97 is a valid check value; 00 satisfies mod 97 too but is not ISO 13616.
    const bban = '370400440532013000';
    for (let n = 0; n < 100; n++) {
      const check = String(n).padStart(2, '0');
      const result = validateIban(`DE${check}${bban}`);
      if (check === '89') expect(result.ok).toBe(true);
      else expect(result).toEqual({ ok: false, reason: 'checksum' });
    }
    // Find a BBAN whose proper check digits are 97/98, whose alias 00/01 also passes mod 97.
    for (const [proper, alias] of [
      ['97', '00'],
      ['98', '01'],
      ['02', '99'],
    ] as const) {
      let bban2 = '';
      for (let i = 0; ; i++) {
        bban2 = String(i).padStart(18, '0');
        if (referenceCheckDigits('DE', bban2) === proper) break;
      }
      expect(validateIban(`DE${proper}${bban2}`).ok).toBe(true);
      expect(validateIban(`DE${alias}${bban2}`)).toEqual({ ok: false, reason: 'checksum' });
    }
  });

  it('agrees with a bigint reference on random BBANs, and catches single-digit changes', () => {
    const countries = Object.keys(IBAN_LENGTHS);
    const alnum = fc.constantFrom(...'0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ');
    const arb = fc.constantFrom(...countries).chain((country) =>
      fc.tuple(
        fc.constant(country),
        fc.string({
          unit: alnum,
          minLength: IBAN_LENGTHS[country]! - 4,
          maxLength: IBAN_LENGTHS[country]! - 4,
        }),
        fc.nat(),
        fc.integer({ min: 1, max: 9 }),
      ),
    );
    fc.assert(
      fc.property(arb, ([country, bban, at, delta]) => {
        const iban = `${country}${referenceCheckDigits(country, bban)}${bban}`;
        expect(validateIban(iban)).toEqual({ ok: true, country, normalized: iban });
        const digitPositions = Array.from(iban, (_, i) => i).filter((i) => i >= 2 && /\d/.test(iban[i]!));
        const i = digitPositions[at % digitPositions.length]!;
        const altered = iban.slice(0, i) + String((Number(iban[i]) + delta) % 10) + iban.slice(i + 1);
        expect(validateIban(altered).ok).toBe(false);
      }),
    );
  });
});

describe('IBAN_LENGTHS', () => {
  it.each([
    ['DE', 22],
    ['AT', 20],
    ['NL', 18],
    ['FR', 27],
    ['GB', 22],
    ['ES', 24],
    ['IT', 27],
    ['BE', 16],
    ['CH', 21],
    ['NO', 15],
    ['LC', 32],
    ['RU', 33],
  ])('%s is %i', (country, length) => {
    expect(ibanLengthOf(country)).toBe(length);
  });

  it('covers the 89 registry countries with lengths 15-34', () => {
    const entries = Object.entries(IBAN_LENGTHS);
    expect(entries).toHaveLength(89);
    for (const [country, length] of entries) {
      expect(country).toMatch(/^[A-Z]{2}$/);
      expect(length).toBeGreaterThanOrEqual(15);
      expect(length).toBeLessThanOrEqual(34);
    }
  });

  it('does not treat prototype keys as countries', () => {
    expect(ibanLengthOf('constructor')).toBeUndefined();
    expect(ibanLengthOf('US')).toBeUndefined();
  });
});

describe('maskIban', () => {
  it.each([
    ['DE89370400440532013000', 'DE89**************3000'],
    ['de89 3704 0044 0532 0130 00', 'DE89**************3000'],
    ['NO9386011117947', 'NO93*******7947'],
    ['DE89', 'DE89'],
    ['DE891234', 'DE89****'],
    ['', ''],
  ])('%j -> %s', (iban, expected) => {
    expect(maskIban(iban)).toBe(expected);
  });
});

describe('ibanBankCode', () => {
  it.each([
    ['DE89370400440532013000', '37040044'],
    ['DE23 1000 0000 1234 5678 90', '10000000'],
    ['AT611904300234573201', '19043'],
    ['BE68539007547034', '539'],
    ['ES9121000418450200051332', '2100'],
    ['FR1420041010050500013M02606', '20041'],
    ['GB29NWBK60161331926819', 'NWBK'],
    ['IT60X0542811101000000123456', '05428'],
    ['nl91abna0417164300', 'ABNA'],
  ])('%s → %s', (iban, code) => {
    expect(ibanBankCode(iban)).toBe(code);
  });

  it('gives nothing for an invalid IBAN or a country outside SEPA', () => {
    expect(ibanBankCode('DE89370400440532013001')).toBeUndefined();
    expect(ibanBankCode('TR330006100519786457841326')).toBeUndefined();
  });
});

describe('validateBic', () => {
  it.each([
    ['MARKDEF1100', true],
    ['TESTDETT421', true],
    ['DEUTDEFF', true],
    ['DEUTDEFF500', true],
    ['NWBKGB2L', true],
    ['deutdeff', true],
    ['DEUTDEF', false],
    ['DEUTDEFF5', false],
    ['DEUTDEFF50', false],
    ['DEUTDEFF5000', false],
    ['DEU1DEFF', false],
    ['DEUTD1FF', false],
    ['DEUTDEF_', false],
    ['DEUT DEFF', false],
    ['', false],
  ])('%j -> %s', (bic, expected) => {
    expect(validateBic(bic)).toBe(expected);
  });
});
