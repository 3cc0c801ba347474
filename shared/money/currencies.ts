/**
 * ISO 4217 active currency codes ("List One") with their minor-unit exponents.
 *
 * Browser-safe, dependency-free. Snapshot of List One as published 2025-05-12 (179 codes): includes the
 * 2024/2025 additions XAD (Arab Accounting Dinar), XCG (Caribbean Guilder, replacing ANG) and ZWG
 * (Zimbabwe Gold, replacing ZWL); excludes withdrawn ANG, CUC, HRK, SLL and ZWL. Update this table when
 * ISO amends the list (e.g. BGN is expected to be withdrawn after Bulgaria adopts the euro).
 *
 * Grouped by exponent (digits of the minor unit). `NA` holds codes whose minor unit ISO lists as "N.A."
 * (precious metals, bond-market units, SDR, test and no-currency codes): they are valid ISO 4217 codes but
 * have no minor unit, so `exponentOf` returns `undefined` for them and they cannot be converted to `Minor`.
 */
const BY_EXPONENT = {
  0: 'BIF CLP DJF GNF ISK JPY KMF KRW PYG RWF UGX UYI VND VUV XAF XOF XPF',
  2: `
  AED AFN ALL AMD AOA ARS AUD AWG AZN BAM BBD BDT BGN BMD BND BOB BOV BRL BSD BTN
  BWP BYN BZD CAD CDF CHE CHF CHW CNY COP COU CRC CUP CVE CZK DKK DOP DZD EGP ERN
  ETB EUR FJD FKP GBP GEL GHS GIP GMD GTQ GYD HKD HNL HTG HUF IDR ILS INR IRR JMD
  KES KGS KHR KPW KYD KZT LAK LBP LKR LRD LSL MAD MDL MGA MKD MMK MNT MOP MRU MUR
  MVR MWK MXN MXV MYR MZN NAD NGN NIO NOK NPR NZD PAB PEN PGK PHP PKR PLN QAR RON
  RSD RUB SAR SBD SCR SDG SEK SGD SHP SLE SOS SRD SSP STN SVC SYP SZL THB TJS TMT
  TOP TRY TTD TWD TZS UAH USD USN UYU UZS VED VES WST XAD XCD XCG YER ZAR ZMW ZWG  `,
  3: 'BHD IQD JOD KWD LYD OMR TND',
  4: 'CLF UYW',
  NA: 'XAG XAU XBA XBB XBC XBD XDR XPD XPT XSU XTS XUA XXX',
} as const;

/** Possible minor-unit exponents of ISO 4217 currencies. */
export type MinorUnitExponent = 0 | 2 | 3 | 4;

const EXPONENTS = new Map<string, MinorUnitExponent | undefined>();
for (const [key, list] of Object.entries(BY_EXPONENT)) {
  const exponent = key === 'NA' ? undefined : (Number(key) as MinorUnitExponent);
  for (const code of list.trim().split(/\s+/)) EXPONENTS.set(code, exponent);
}

/** All active ISO 4217 alphabetic codes, sorted. */
export const CURRENCY_CODES: readonly string[] = Object.freeze([...EXPONENTS.keys()].sort());

/** True for an active ISO 4217 alphabetic code. Case-sensitive: `eur` is rejected. */
export function isCurrency(code: unknown): code is string {
  return typeof code === 'string' && EXPONENTS.has(code);
}

/**
 * Minor-unit exponent of a currency (`EUR` → 2, `JPY` → 0, `BHD` → 3, `CLF` → 4), or `undefined` when the
 * code is not an active ISO 4217 code or its minor unit is "N.A." (e.g. `XAU`, `XXX`).
 */
export function exponentOf(code: string): MinorUnitExponent | undefined {
  return EXPONENTS.get(code);
}
