/**
 * The README's table of the simulator's test data, rendered from the same constants the kit
 * exports (cards.ts, themselves read from server/processors/simulator/): the README cannot list a
 * card the simulator does not know, nor miss one it does (scripts/simulator-table.test.ts;
 * `npm run docs` rewrites it).
 */

import { eciOf } from '../../server/processors/simulator/access-control-server';
import type { AuthenticationStatus } from '../../shared/engine/core/ports';
import {
  acceptedLaterBrands,
  cards,
  challengeOutcomes,
  declinedCards,
  ibans,
  redirectMethods,
  type TestCard,
  threeDSecureCards,
  walletCards,
} from './cards';

export const TABLE_START =
  '<!-- simulator-test-data: generated from the simulator tables by `npm run docs` -->';
export const TABLE_END = '<!-- /simulator-test-data -->';

const code = (value: string) => `\`${value}\``;

function frictionlessText(status: string, cardsOfKind: readonly TestCard[]): string {
  const ecis = [...new Set(cardsOfKind.map((c) => c.brand))].flatMap((brand) => {
    const eci = eciOf(brand, status as AuthenticationStatus);
    return eci === undefined ? [] : [`${brand} ${eci}`];
  });
  return `frictionless \`${status}\` (${ecis.length === 0 ? 'no ECI' : `ECI ${ecis.join(', ')}`})`;
}

function threeDSecureOutcome(kind: TestCard['threeDSecure'], cardsOfKind: readonly TestCard[]): string {
  const outcome = code(cardsOfKind[0]!.outcome);
  if (kind === 'challenge') {
    const o = challengeOutcomes;
    return (
      `challenge: code ${code(o.code)} → ${code(o.answered)}; another code or "Fail authentication" → ` +
      `${code(o.failed)}; "Cancel" → ${code(o.cancelled)}; no answer in 30 min → ${code(o.timedOut)}`
    );
  }
  if (kind.startsWith('frictionless ')) return `${frictionlessText(kind.slice(13), cardsOfKind)}: ${outcome}`;
  return `${kind}: ${outcome}`;
}

function namedCardRows(): string[] {
  return Object.entries(cards).map(
    ([name, card]) =>
      `| \`cards.${name}\` | ${code(card.number)} (${card.brand}), expiry ${card.expiry}, CVV ${card.cvv} | ` +
      `${card.threeDSecure}: ${code(card.outcome)} |`,
  );
}

function declinedRows(): string[] {
  return declinedCards.map((card) => {
    const advice =
      card.merchantAdviceCode === undefined
        ? ''
        : `, \`resultDetails.MerchantAdviceCode\` ${code(card.merchantAdviceCode)}`;
    return (
      `| \`declinedCards\` | ${code(card.number)} (${card.brand}) | declined: ${code(card.outcome)}, ` +
      `\`AcquirerResponse\` ${code(card.acquirerResponse)}${advice} |`
    );
  });
}

function threeDSecureRows(): string[] {
  const kinds = [...new Set(threeDSecureCards.map((c) => c.threeDSecure))];
  return kinds.map((kind) => {
    const ofKind = threeDSecureCards.filter((c) => c.threeDSecure === kind);
    const numbers = ofKind.map((c) => `${code(c.number)} (${c.brand})`).join(', ');
    return `| \`threeDSecureCards\` | ${numbers} | ${threeDSecureOutcome(kind, ofKind)} |`;
  });
}

function otherRows(): string[] {
  const wallets = Object.values(walletCards).map(
    (w) => `| \`walletCards['${w.id}']\` | "${w.label}" in a wallet sheet | ${code(w.outcome)} |`,
  );
  const redirects = Object.values(redirectMethods).map(
    (r) =>
      `| \`redirectMethods.${r.brand}\` | "${r.title}" | Approve → ${code(r.approved)}; Decline → ` +
      `${code(r.declined)}; Cancel → ${code(r.cancelled)}; no answer in 30 min → ${code(r.timedOut)}` +
      `${r.voucher ? '; the answer carries `resultDetails.VoucherReference` and `VoucherDueDate`' : ''} |`,
  );
  const later = acceptedLaterBrands.map(code).join(', ');
  return [
    `| \`ibans.success\` | ${code(ibans.success)} | \`000.100.110\` |`,
    `| \`ibans.invalidChecksum\` | ${code(ibans.invalidChecksum)} | refused by the widget; \`100.100.101\` by the API |`,
    ...wallets,
    ...redirects,
    `| \`acceptedLaterBrands\` | ${later}, no shopper redirect | \`000.200.000\`, about a minute later \`000.100.110\` ` +
      '(`customParameters[forceResultCode]`: that code, the provider’s refusal), notified |',
  ];
}

/** The markdown block between TABLE_START and TABLE_END, markers included. */
export function renderSimulatorTable(): string {
  return [
    TABLE_START,
    '| kit constant (`open-payment-gateway/testing`) | input | outcome (3-D Secure on) |',
    '|---|---|---|',
    ...namedCardRows(),
    ...declinedRows(),
    ...threeDSecureRows(),
    ...otherRows(),
    TABLE_END,
  ].join('\n');
}

/** The README with its generated block replaced by `block`; throws when the markers are missing. */
export function withSimulatorTable(readme: string, block: string = renderSimulatorTable()): string {
  const from = readme.indexOf(TABLE_START);
  const to = readme.indexOf(TABLE_END);
  if (from === -1 || to < from) throw new Error('README: the simulator test-data markers are missing');
  return readme.slice(0, from) + block + readme.slice(to + TABLE_END.length);
}
