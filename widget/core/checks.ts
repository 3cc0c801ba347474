/**
 * Field checks the widget makes before it sends: the spec's formats of the fields it collects.
 * `shared/params/formats` is the one definition; importing it here would carry its country,
 * currency and cron tables into the bundle, so the two formats used (A, AN) are checked here and
 * `checks.test.ts` holds both the formats (against the parameter catalogue) and the verdicts
 * (against checkFormat) equal.
 */

export interface TextFormat {
  readonly t: 'A' | 'AN';
  readonly min: number;
  readonly max: number;
}

export const FORMATS = {
  'card.holder': { t: 'A', min: 3, max: 128 },
  'bankAccount.holder': { t: 'AN', min: 4, max: 128 },
  'virtualAccount.accountId': { t: 'AN', min: 1, max: 100 },
  'giftCard.number': { t: 'AN', min: 2, max: 255 },
  'giftCard.pin': { t: 'AN', min: 2, max: 255 },
  'billing.street1': { t: 'AN', min: 1, max: 100 },
  'billing.city': { t: 'AN', min: 1, max: 80 },
} as const satisfies Record<string, TextFormat>;

/** The spec's A: letters, and the spaces and punctuation names carry. */
const LETTERS = /^[\p{L}\p{M}][\p{L}\p{M} '.,-]*$/u;

export function checkText(format: TextFormat, value: string): boolean {
  const length = Array.from(value).length;
  if (length < format.min || length > format.max) return false;
  return format.t === 'AN' || LETTERS.test(value);
}

export const fits = (parameter: keyof typeof FORMATS, value: string): boolean =>
  checkText(FORMATS[parameter], value);
