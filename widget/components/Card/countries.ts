/**
 * The billing country select's codes: ISO 3166-1 alpha-2, as shared/geo holds them. shared/geo's
 * table also carries the alpha-3 and numeric codes (1.4 KB gzip) and the widget's script has a size
 * budget, so the codes come as a bitmap over AA…ZZ (bit i: the code with letters i / 26 and i % 26,
 * base64); countries.test.ts keeps it equal to shared/geo.
 */
const BITMAP =
  'eFnf7u+93d4nP4QVgNQADgBcCbCf+xUAjQYYeA9AQAMAHSv0QYFP/fz/1yVLCAABQDyPUwEAAEAAUfH95zq7n5pBEARXhUAAAkAAAAAAEAAIBEAAAQ==';

/** Every officially assigned alpha-2 code, in alphabetical order. */
export const COUNTRY_CODES: readonly string[] = (() => {
  const bits = atob(BITMAP);
  const codes: string[] = [];
  for (let i = 0; i < 676; i++)
    if ((bits.charCodeAt(i >> 3) >> (i & 7)) & 1) codes.push(String.fromCharCode(65 + i / 26, 65 + (i % 26)));
  return codes;
})();

/** The codes with their names in the shopper's language (Intl), sorted by name. */
export function countryOptions(language: string): [code: string, name: string][] {
  let names: Intl.DisplayNames | undefined;
  try {
    names = new Intl.DisplayNames([language], { type: 'region' });
  } catch {
    names = undefined;
  }
  return COUNTRY_CODES.map((c): [string, string] => [c, names?.of(c) ?? c]).sort((a, b) =>
    a[1].localeCompare(b[1], language),
  );
}
