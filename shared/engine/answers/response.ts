/**
 * A stored payment as the API answers it: the fields clients read (compat: "Responses clients
 * read") and the echoed request groups. The envelope's buildNumber and timestamp are added by
 * the HTTP layer; the ndc belongs to the payment.
 */
import { detectBrand, paysToMerchantAccount } from '../../brands';
import type { AnsweredCard, AnswerTree, PaymentAnswer, Result } from '../../contract';
import { fromMinor } from '../../money';
import type { ChannelSettings, Payment, StoredCard } from '../core/model';
import type { Processors } from '../core/ports';
import { flag } from './text';

/** Who answers the issuer lookup of a card: the processors (only the simulator has a BIN table). */
export type IssuerLookup = Pick<Processors, 'simulator'>;

/** The payment answer (shared/contract/payment.ts), as the engine builds it: no buildNumber or timestamp. */
export type PaymentResponse = PaymentAnswer;

/** What the processor answered beside the code (`details.result`: avsResponse, cvvResponse …). */
export type ResultExtras = { readonly [name: string]: AnswerTree };

/** An echoed group of the request as the answer repeats it. */
type Echoed = Readonly<Record<string, AnswerTree>>;

/**
 * A stored card as responses show it: bin and last4Digits, never the number. A token account's
 * token is answered here too: the spec's response fields name masked numbers only under `card`
 * (card.bin, card.last4Digits; card.number is "PAN or account number"), and the echoed
 * `tokenAccount.type` tells it apart. A token sent without expiry has none to show.
 */
export function maskedCard(card: StoredCard): AnsweredCard {
  return {
    bin: card.bin,
    last4Digits: card.last4Digits,
    ...(card.holder === undefined ? {} : { holder: card.holder }),
    ...(card.expiryMonth === '' ? {} : { expiryMonth: card.expiryMonth }),
    ...(card.expiryYear === '' ? {} : { expiryYear: card.expiryYear }),
  };
}

/**
 * `card` of an answer: the echoed card group, then the masked card and the issuer's fields over
 * it, as `{ ...echoed, ...maskedCard(card), …issuer fields }` gives them (a name already
 * echoed keeps its place), built field by field: three spreads into one literal are V8's slow
 * path, the largest cost of building an answer (profiled).
 */
function answeredCard(
  echoed: Echoed,
  p: Payment,
  card: StoredCard,
  issuers: IssuerLookup | undefined,
): AnsweredCard {
  const out: AnsweredCard = {};
  for (const name of Object.keys(echoed)) out[name] = echoed[name]!;
  out.bin = card.bin;
  out.last4Digits = card.last4Digits;
  if (card.holder !== undefined) out.holder = card.holder;
  if (card.expiryMonth !== '') out.expiryMonth = card.expiryMonth;
  if (card.expiryYear !== '') out.expiryYear = card.expiryYear;
  // card.type, card.level, card.issuer.* and card.regulatedFlag, derived from the BIN at answer
  // time (nothing to migrate, and stored payments gain them too). Only the simulator's issuer
  // lookup exists, so only INTERNAL payments have them: a live or EXTERNAL payment never gets
  // simulated issuer data.
  const info = p.testMode === 'INTERNAL' ? issuers?.simulator.binInfo?.(card.bin) : undefined;
  if (info !== undefined) {
    out.type = info.type;
    out.level = info.level;
    out.issuer = { ...info.issuer };
    // the family's Y/N, never a JSON boolean: every leaf of an answer is text (text.ts)
    out.regulatedFlag = flag(info.regulated);
  }
  return out;
}

/**
 * The answer's fields up to `brandResult` (everything but result, shortId and ndc), written into
 * `into` in the order clients see them. Assigned one by one rather than spread from conditional
 * literals: the answer is built on every create and read, and each `...(x ? {} : {…})` is an
 * object and a copy of its own.
 */
export function writePaymentFields(
  // a loose record, not Partial<PaymentResponse>: the HTTP envelope builds its body in place here too
  into: Record<string, unknown>,
  p: Payment,
  issuers?: IssuerLookup,
): ResultExtras | undefined {
  into.id = p.id;
  into.paymentType = p.paymentType;
  if (p.paymentBrand !== undefined) into.paymentBrand = p.paymentBrand;
  if (p.amount !== null && p.currency !== undefined) into.amount = fromMinor(p.amount, p.currency);
  if (p.currency !== undefined) into.currency = p.currency;
  if (p.descriptor !== undefined) into.descriptor = p.descriptor;
  if (p.merchantTransactionId !== undefined) into.merchantTransactionId = p.merchantTransactionId;
  if (p.referencedId !== undefined) into.referencedId = p.referencedId;
  if (p.registrationId !== undefined) into.registrationId = p.registrationId;
  // riskCheck: why the risk check decided as it did, for the RISK notification only (risk-check.ts);
  // result: merged into the answer's result (resultOf)
  // the details hold the echoed request (echo.ts) and what the steps added: text all the way down
  const details = p.details as Echoed;
  for (const name in details) {
    if (name !== 'result' && name !== 'riskCheck') into[name] = details[name];
  }
  // a registration made along is kept with its connector's id of it (and the route holding it):
  // the registration's own business, never the merchant's (answers/registration.ts drops it too)
  const kept = details.resultDetails as Echoed | undefined;
  if (kept !== undefined && typeof kept === 'object' && 'ConnectorRegistrationID' in kept) {
    const { ConnectorRegistrationID: _kept, ...answered } = kept;
    into.resultDetails = answered;
  }
  if (p.card !== undefined) {
    const echoedCard = (details.card ?? {}) as Echoed;
    into.card = answeredCard(echoedCard, p, p.card, issuers);
  }
  // brandResult (spec: "Detected brand", A16): the card brand the number's IIN belongs to, detected
  // from the BIN by the payment-method catalogue in every mode, so a merchant sees what the number
  // says beside the paymentBrand that was sent (a co-badged card, a brand the shopper picked).
  const brand = p.card === undefined ? undefined : brandOfBin(p.card.bin);
  if (brand !== undefined) into.brandResult = brand;
  return details.result as ResultExtras | undefined;
}

/** The answer's `result`: the code, its description and what the processor answered beside it. */
export function resultOf(p: Payment, extra: ResultExtras | undefined): Result {
  const result: Result = { code: p.resultCode, description: p.resultDescription };
  for (const name in extra) result[name] = extra[name]!;
  return result;
}

/**
 * The brand detected from a BIN, kept: every answer with a card asks, the catalogue's IIN ranges
 * are walked and sorted each time (a µs a payment), and the answer depends on the BIN alone.
 * Bounded, and emptied when full, as a BIN table's size is.
 */
const detectedBrands = new Map<string, string | undefined>();

function brandOfBin(bin: string): string | undefined {
  if (detectedBrands.has(bin)) return detectedBrands.get(bin);
  const brand = detectBrand(bin);
  if (detectedBrands.size >= 10_000) detectedBrands.clear();
  detectedBrands.set(bin, brand);
  return brand;
}

/** `issuers`: the processors whose issuer lookup adds card.type, card.level, card.issuer.* and card.regulatedFlag. */
export function paymentResponse(p: Payment, issuers?: IssuerLookup): PaymentResponse {
  const answer: Partial<PaymentResponse> = {};
  const extraResult = writePaymentFields(answer, p, issuers);
  answer.result = resultOf(p, extraResult);
  answer.shortId = p.shortId;
  answer.ndc = p.ndc;
  // writePaymentFields wrote id and paymentType, the two fields Partial leaves optional
  return answer as PaymentResponse;
}

/**
 * `merchant.bankAccount` (spec, response fields: holder, number — the IBAN —, bic, country) for a
 * payment of a brand the shopper pays by transfer to the merchant's own account (the catalogue's
 * `toMerchantAccount`: PREPAYMENT, SEPA), so the answer says where to; never for another brand (a
 * direct debit is collected by the merchant, a boleto paid at a bank to its provider, an invoice
 * to the pay-later provider). Only on a channel with the merchant's account configured, merged into the
 * echoed `merchant` group; nothing otherwise. The country, when the channel's account names none,
 * is the IBAN's own (its first two letters). Kept in the payment's details, so the answer stays
 * what the shopper was told; storage seals `merchant.bankAccount.number` at rest.
 */
export function merchantBankAccount(
  settings: ChannelSettings,
  brand: string | undefined,
  echo: Readonly<Record<string, unknown>>,
): Pick<PaymentAnswer, 'merchant'> {
  const account = settings.bankAccount;
  if (account === undefined || !paysToMerchantAccount(brand)) return {};
  const echoed = echo.merchant;
  const merchant = echoed !== null && typeof echoed === 'object' ? (echoed as Echoed) : {};
  return {
    merchant: {
      ...merchant,
      bankAccount: {
        holder: account.holder,
        number: account.iban,
        bic: account.bic,
        ...(account.bankName === undefined ? {} : { bankName: account.bankName }),
        country: account.country ?? account.iban.slice(0, 2).toUpperCase(),
      },
    },
  };
}
