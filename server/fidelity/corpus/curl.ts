/**
 * The operator's curl samples (PAYON-AG/servertoserver-curl, PAYON-AG/copyandpay-curl) as entries:
 * each `-d "name=value"` a field, sent as curl sends `-d` (nothing escaped, joined by `&`), the
 * legacy credentials `authentication.userId`, `.password`, `.entityId` first, as in every sample.
 */
import type { Entry, Field } from '../entry';

/** The samples' credentials, here the demo channel's (the samples' own are the docs' test account). */
const AUTHENTICATION: Field[] = [
  ['authentication.userId', '{userId}'],
  ['authentication.password', '{password}'],
  ['authentication.entityId', '{entityId}'],
];

/** `name=value` lines → fields (split at the first `=`: values may hold one). */
export const fields = (...lines: string[]): Field[] =>
  lines.map((line) => {
    const at = line.indexOf('=');
    return [line.slice(0, at), line.slice(at + 1)] as const;
  });

export interface Sample {
  readonly name: string;
  /** The sample's file in the repository. */
  readonly file: string;
  readonly note?: string;
  readonly method?: Entry['method'];
  readonly path: string;
  /** The `-d` lines after the credentials. */
  readonly data?: readonly string[];
  readonly prior?: string;
  readonly expect: Entry['expect'];
}

/** A sample of `repo` as an entry: credentials in the body (or the query of a GET or DELETE). */
export function curlSample(repo: string, s: Sample): Entry {
  const method = s.method ?? 'POST';
  const inQuery = method !== 'POST';
  const query = AUTHENTICATION.map(([n, v]) => `${n}=${v}`).join('&');
  return {
    name: s.name,
    source: {
      repo,
      path: s.file,
      note: s.note ?? 'curl -d fields as written, the credentials of the demo channel',
    },
    method,
    path: inQuery ? `${s.path}${s.path.includes('?') ? '&' : '?'}${query}` : s.path,
    ...(inQuery ? {} : { body: [...AUTHENTICATION, ...fields(...(s.data ?? []))], encoding: 'raw' as const }),
    setup: { auth: 'body', ...(s.prior === undefined ? {} : { prior: s.prior }) },
    expect: s.expect,
  };
}

export const SUCCESS = { status: 200, resultCode: '000.100.110', has: ['id'], strings: true } as const;
export const CHECKOUT = { status: 200, resultCode: '000.200.100', has: ['id'], strings: true } as const;
export const PENDING_REDIRECT = {
  status: 200,
  resultCode: '000.200.000',
  has: ['id', 'redirect.url'],
} as const;
/** A method's first answer in test mode: pending (redirect, invoice, voucher) or success. */
export const FLOW_ANSWER = {
  status: 200,
  resultCodePattern: '^000\\.(200\\.000|100\\.110)$',
  has: ['id'],
} as const;
/**
 * An invoice's or instalments' first answer in test mode: pending (000.200.000) without a
 * redirect, the shopper has nothing to do; the provider accepts it later (invoice-brands.test.ts).
 */
export const ACCEPTED_LATER = {
  status: 200,
  resultCode: '000.200.000',
  has: ['id'],
  omits: ['"redirect"'],
} as const;
/**
 * A voucher's first answer: pending with a redirect to the voucher, whose reference (a boleto's
 * typeable line) and due date the answer carries in resultDetails (voucher-brands.test.ts).
 */
export const VOUCHER = {
  status: 200,
  resultCode: '000.200.000',
  has: ['id', 'redirect.url'],
  matches: {
    'resultDetails.VoucherReference': '^\\d{5}\\.\\d{5} \\d{5}\\.\\d{6} \\d{5}\\.\\d{6} \\d \\d{14}$',
    'resultDetails.VoucherDueDate': '^\\d{4}-\\d{2}-\\d{2}$',
  },
} as const;
/**
 * `testMode=EXTERNAL` on a channel without a connector: DECISIONS (Outcomes) refuse it with a
 * configuration code (600.200.2xx), never simulate it. Not 600.200.100 (an unknown brand), not a
 * 400 on the request's parameters.
 */
export const EXTERNAL_REFUSED = { status: 400, resultCodePattern: '^600\\.200\\.[2-9]' } as const;

/**
 * The sample repeats customParameters[PAYOLUTION_ITEM_PRICE_1] and _DESCR_1 with different values:
 * DECISIONS (Wire format) make a name repeated with different values a parameter error. No answer
 * of the family to these samples is recorded, so the decision holds; the lead may revisit it.
 */
export const REPEATED_NAMES = {
  status: 400,
  resultCode: '200.300.404',
  parameterErrors: ['customParameters[PAYOLUTION_ITEM_PRICE_1]', 'customParameters[PAYOLUTION_ITEM_DESCR_1]'],
} as const;
