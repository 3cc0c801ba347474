/**
 * docs/payment-methods.md, rendered from the payment-method catalogue (catalogue.ts): the method
 * codes, every brand with its method, flow and account data, and the card brands' IIN ranges,
 * lengths and CVV rules. Not part of the widget's bundle (index.ts does not export it).
 */
import {
  ACCOUNT_DATA,
  type BrandDef,
  type CatalogueBrand,
  catalogueBrands,
  type Flow,
  METHOD_CODES,
  METHODS,
  type MethodCode,
  PAYMENT_BRANDS,
} from './catalogue';

/** What each method code means here; `ours` marks a reading the family does not publish. */
const METHOD_NOTES: Readonly<Record<MethodCode, string>> = {
  DD: "The shopper's bank account is debited under a mandate.",
  CT: "A transfer from the shopper's bank account (given with the payment) to the merchant's account, which the answer names as `merchant.bankAccount` and the channel must have (else 600.200.201).",
  CC: 'Card schemes that issue credit cards (most also issue debit cards under the same brand).',
  WA: 'A wallet: its payment token, or the shopper logs in to the wallet.',
  VA: 'An account the shopper holds with a provider: named by an id (virtual account, gift card, STC Pay), or logged in to at the provider (Alipay, paysafecard, TrustPay, Yandex.Money), as the family files PayPal-like accounts.',
  UA: "An account the shopper holds with the merchant's platform (the family's 100.211.x result codes); no brand of the catalogue has it.",
  OT: 'The shopper logs in to their online banking and confirms the transfer; the bank hints (`bankAccount.country`, `.bankName`, `.iban`, `.bic`) are optional and passed to the provider.',
  DC: 'Card schemes that issue debit cards only.',
  ET: 'The spec lists the code without its meaning and the family publishes none.',
  NT: 'The spec lists the code without its meaning and the family publishes none.',
  IV: "The shopper pays on the provider's invoice, after delivery. The provider accepts the payment after its own checks: in test mode it is pending (000.200.000, no redirect) and accepted a minute later, with a PAYMENT UPDATED notification (a forced result code is its refusal then).",
  PP: "The shopper pays before delivery: a transfer to the merchant's account (PREPAYMENT, which needs that account on the channel, else 600.200.201) or a voucher paid at a bank (BOLETO, BRADESCO: a boleto of Banco Bradesco; its registration keeps the payer, no account), whose reference and due date the answer carries as `resultDetails.VoucherReference` and `resultDetails.VoucherDueDate`.",
  OD: 'The spec lists the code without its meaning and the family publishes none.',
  RM: "Our reading (the spec lists the code only); stand-alone risk checks keep their brand's method.",
};

const FLOWS: Readonly<Record<Flow, string>> = {
  sync: 'decided at once with the account data sent',
  redirect: 'pending: the shopper is redirected to the provider, whose answer decides',
  later:
    "the shopper pays later: a prepayment to the merchant's account is accepted now, an invoice by its provider later (pending until then)",
};

const cell = (s: string) => s.replaceAll('|', '\\|');

const brandsOf = (method: MethodCode): CatalogueBrand[] =>
  (Object.keys(PAYMENT_BRANDS) as CatalogueBrand[]).filter((b) => PAYMENT_BRANDS[b].method === method);

function accountData(entry: BrandDef): string {
  const group = entry.group;
  if (group === undefined) return 'none';
  const data = ACCOUNT_DATA[group].map(([name, or]) =>
    or === undefined ? `\`${name}\`` : `\`${name}\` (or ${or.startsWith(group) ? `\`${or}\`` : or})`,
  );
  if (entry.kind === 'card') return `${data.join(', ')}; or a network token (\`tokenAccount.*\`)`;
  return entry.providerCollectsAccount
    ? `optional: ${data.join(', ')}; when none is sent the provider collects it`
    : data.join(', ');
}

function ranges(entry: BrandDef): string {
  return (entry.card?.iin ?? []).map(([low, high]) => (low === high ? low : `${low}-${high}`)).join(', ');
}

function lengths(values: readonly number[]): string {
  const first = values[0]!;
  const last = values.at(-1)!;
  return values.length > 2 && last - first === values.length - 1 ? `${first}-${last}` : values.join(', ');
}

export function renderPaymentMethodDocs(): string {
  const out: string[] = [
    '# Payment methods',
    '',
    '<!-- Generated from shared/brands/catalogue.ts by `npm run docs`; do not edit. -->',
    '',
    'Every brand the gateway processes belongs to one payment method. A brand that is not listed here',
    'is refused with `600.200.100`; a listed brand without the account data its method needs gets',
    "HTTP 400 naming every missing parameter. The method code is what the Query API's",
    "`paymentMethods` filter matches: a payment's method follows from its brand.",
    '',
    '## Method codes',
    '',
    '| Code | Method | Meaning | Brands |',
    '|---|---|---|---|',
  ];
  for (const code of METHOD_CODES) {
    const brands = brandsOf(code);
    out.push(
      `| ${code} | ${METHODS[code] === code ? '' : METHODS[code]} | ${cell(METHOD_NOTES[code])} | ${
        brands.length === 0 ? 'none yet: the filter matches nothing' : brands.join(', ')
      } |`,
    );
  }
  out.push('', '## Flows', '', '| Flow | Outcome |', '|---|---|');
  for (const [flow, text] of Object.entries(FLOWS)) out.push(`| ${flow} | ${text} |`);
  out.push('', '## Brands', '', '| Brand | Name | Method | Flow | Account data |', '|---|---|---|---|---|');
  for (const brand of catalogueBrands()) {
    const entry: BrandDef = PAYMENT_BRANDS[brand];
    out.push(
      `| ${brand} | ${cell(entry.name)} | ${entry.method} | ${entry.flow} | ${cell(accountData(entry))} |`,
    );
  }
  out.push(
    '',
    '## Card brands',
    '',
    'Detection takes the longest matching IIN prefix, then the brands the merchant prefers',
    '(`brandDetectionPriority`), then the order of this table. Co-badged cards therefore go to the',
    'more specific brand (a mada BIN is MADA, not VISA) unless that brand is not offered; a payment',
    "that names a brand only needs the number in that brand's ranges (MADA's cards pay as VISA too).",
    '',
    '| Brand | IIN ranges | Lengths | CVV | Luhn |',
    '|---|---|---|---|---|',
  );
  for (const brand of catalogueBrands('card')) {
    const entry: BrandDef = PAYMENT_BRANDS[brand];
    const card = entry.card!;
    out.push(
      `| ${brand} | ${ranges(entry)} | ${lengths(card.lengths)} | ${card.cvvLength} digits (${card.cvvLabel}), ${
        card.cvvRequired ? 'required' : 'optional'
      } | ${card.luhn ? 'yes' : 'no'} |`,
    );
  }
  out.push('');
  return out.join('\n');
}
