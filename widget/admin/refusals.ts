/**
 * A refusal in words: the result codes a money action can meet, as a sentence an operator can act
 * on, with the amount that remains where it matters; never the catalogue's raw text
 * ("…or invalid workflow?"). Codes not listed keep the gateway's description.
 */
import type { KnownResultCode } from '../../shared/result-codes/catalogue.data';
import { formatAmount } from './format';

/** What the sentence may quote: the amount that remains for this action, in its currency. */
export interface RefusalFacts {
  readonly remaining?: string | null;
  readonly currency?: string | null;
}

const left = (facts: RefusalFacts) =>
  facts.remaining === undefined || facts.remaining === null
    ? ''
    : ` (${facts.remaining} ${facts.currency ?? ''})`.replace(' )', ')');

// the codes as literals (ResultCodes' names beside them), typed against the catalogue: importing
// the catalogue itself would put all its texts in the dashboard's bundle
const SENTENCES: { readonly [code in KnownResultCode]?: (facts: RefusalFacts) => string } = {
  '700.400.100': /* CANNOT_CAPTURE */ (f) =>
    `The capture is more than what remains capturable${left(f)}, or the authorization is closed or reversed.`,
  '700.400.200': /* CANNOT_REFUND */ (f) => `The refund is more than what remains refundable${left(f)}.`,
  '700.400.300': /* CANNOT_REVERSE */ () =>
    'This payment can no longer be reversed: it was captured, refunded or reversed already.',
  '700.100.300': /* REFERENCE_INVALID_AMOUNT */ (f) =>
    `The amount is more than what remains${left(f)}, or not above zero.`,
  '700.100.500': /* REFERENCE_CURRENCY_MISMATCH */ () => 'The amount’s currency is not the payment’s.',
  '700.300.300': /* REFERENCE_ALREADY_PROCESSED */ () => 'This has been done already.',
  '700.400.570': /* REFERENCE_PENDING */ () => 'The payment is still pending: it cannot be changed yet.',
  '700.300.200': /* REFERENCE_REJECTED */ () => 'A declined or rejected payment cannot be changed.',
  '700.100.700': /* REFERENCE_INAPPROPRIATE_TYPE */ () =>
    'This action does not apply to this type of transaction.',
  '700.400.510': /* CAPTURE_NEEDS_PA */ () => 'Only a preauthorization can be captured.',
  '700.400.520': /* REFUND_NEEDS_CAPTURE_OR_DEBIT */ () => 'Only a debit or a capture can be refunded.',
};

/** The sentence for `code`, or undefined when the dashboard has none of its own. */
export function refusalSentence(code: string | undefined, facts: RefusalFacts = {}): string | undefined {
  if (code === undefined) return undefined;
  return SENTENCES[code as KnownResultCode]?.(facts);
}

/** The amount for a sentence's parenthesis, formatted as the dashboard shows amounts. */
export const remainingText = (amount: string | null, currency: string | null) =>
  amount === null ? '—' : formatAmount(amount, currency);

/** POST …/registrations/moves's answer (shared/contract's AdminRegistrationMoves), as read here. */
export interface RegistrationMoves {
  readonly moved: readonly { readonly id: string }[];
  readonly refused: readonly { readonly reason: string }[];
}

// the API counts a channel's routes from 0, the dashboard (the channel's page) from 1: the
// gateway's reasons ("route 0 holds it already") are renumbered before they are shown
const fromOne = (text: string) => text.replace(/route (\d+)/g, (_, n) => `route ${+n + 1}`);

/** A move to route `route` (0 first) in words: what moved, and why the others did not, counted. */
export function movedInWords({ moved, refused }: RegistrationMoves, route: number): string {
  const why = new Map<string, number>();
  for (const { reason } of refused) why.set(reason, (why.get(reason) ?? 0) + 1);
  return [
    `${moved.length === 1 ? `Saved card ${moved[0]?.id}` : `${moved.length} saved cards`} moved to route ${route + 1}.`,
    ...[...why].map(([reason, n]) => `${n} not moved: ${fromOne(reason)}.`),
  ].join(' ');
}

/** A named card's refused move (the reason on its `route` field) in words, or undefined. */
export const moveRefusal = (reason: string | undefined, id: string, route: number) =>
  reason && `Saved card ${id} cannot move to route ${route + 1}: ${fromOne(reason)}.`;
