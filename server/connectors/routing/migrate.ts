/**
 * Registrations between connectors (issue 33 point 6). A card registered at one connector by a
 * cardholder-initiated payment may be charged at another for the merchant's later repeats: the
 * schemes' framework for merchant-initiated transactions lets any acquirer take a repeat that
 * quotes the network transaction id of that first payment (network-id.ts, kept with the
 * registration by held.ts). The other connector gets the card itself (the gateway holds it,
 * sealed) as a stored credential, never the CVV:
 *
 * - adyen: `paymentMethod` a scheme card, `shopperInteraction: ContAuth`,
 *   `recurringProcessingModel`, `additionalData.networkTxReference` (adyen/request.ts);
 * - stripe: `payment_method_data[card]`, `confirm`, `off_session`,
 *   `payment_method_options[card][mit_exemption][network_transaction_id]` (stripe/request.ts; a
 *   parameter Stripe enables per account on request);
 * - opp: the card with `standingInstruction` MIT, REPEATED, its type and the network id as
 *   `initialTransactionId` (opp/request.ts).
 *
 * Only merchant-initiated repeats move (standingInstruction.source MIT with a type RECURRING,
 * UNSCHEDULED or INSTALLMENT, as a schedule's runs are); a cardholder's one-click payment is the
 * holding connector's. Only cards move: a bank account or a wallet's token stays where it is, and
 * a card without a network transaction id never moves.
 */
import type { Registration } from '../../../shared/engine/core/model';
import type { Decision, RegistrationPayOrder } from '../../../shared/engine/core/ports';
import { type CardOnFile, type ConnectorContract, type InitialOrder, notSupported } from '../kit/contract';
import { decisionOf, type Environment, uncertainDecisionOf } from '../kit/processor';
import { heldBy } from './held';

const REPEAT_TYPES: ReadonlySet<string> = new Set(['RECURRING', 'UNSCHEDULED', 'INSTALLMENT']);

/** Account data a registration may hold besides a card, which never leaves its connector. */
const NOT_CARDS = ['bankAccount', 'virtualAccount', 'tokenAccount'] as const;

/** The repeat's category when a request is a merchant-initiated repeat that may move; undefined otherwise. */
export function repeatTypeOf(request: object): CardOnFile['type'] | undefined {
  const instruction = (request as { standingInstruction?: { source?: unknown; type?: unknown } })
    .standingInstruction;
  if (instruction?.source !== 'MIT' || typeof instruction.type !== 'string') return undefined;
  return REPEAT_TYPES.has(instruction.type) ? (instruction.type as CardOnFile['type']) : undefined;
}

/** Why a registration cannot be charged elsewhere; undefined when it can (a card with its network id). */
export function unmovable(registration: Registration): string | undefined {
  if (NOT_CARDS.some((name) => registration.details[name] !== undefined) || registration.card === undefined)
    return 'only cards move between connectors: a bank account or a wallet’s token stays with its connector';
  if (heldBy(registration)?.networkTransactionId === undefined)
    return 'no network transaction id of its initial cardholder-initiated payment was kept';
  return undefined;
}

/**
 * A repeat with the registration as a card on file: the card opened from its seal, no CVV, the
 * network id; undefined when the registration cannot move or the payment is no repeat of a PA
 * or DB.
 */
export function cardOnFileOrder(
  order: RegistrationPayOrder,
  openCard: ((sealed: string) => string) | undefined,
): InitialOrder | undefined {
  const { registration, request } = order;
  const type = repeatTypeOf(request);
  const networkTransactionId = heldBy(registration)?.networkTransactionId;
  const card = registration.card;
  const paymentType = (request as { paymentType?: unknown }).paymentType ?? 'DB';
  if (type === undefined || openCard === undefined || card === undefined) return undefined;
  if (unmovable(registration) !== undefined || networkTransactionId === undefined) return undefined;
  if (paymentType !== 'DB' && paymentType !== 'PA') return undefined;
  return {
    channel: order.channel,
    request: { ...request, paymentType, paymentBrand: registration.paymentBrand },
    decide: {
      ...order.decide,
      instrument: {
        kind: 'card',
        brand: registration.paymentBrand,
        number: openCard(card.encryptedNumber),
        expiryMonth: card.expiryMonth,
        expiryYear: card.expiryYear,
        ...(card.holder === undefined ? {} : { holder: card.holder }),
      },
    },
    now: order.now,
    ...(order.paymentId === undefined ? {} : { paymentId: order.paymentId }),
    cardOnFile: { networkTransactionId, type },
  };
}

/** The card-on-file repeat through a connector: its PA or DB, its answer mapped as the kit maps any. */
export async function chargeCardOnFile(
  contract: ConnectorContract,
  order: InitialOrder,
  environment: Environment,
): Promise<Decision> {
  const operation = (order.request as { paymentType?: string }).paymentType === 'PA' ? 'authorize' : 'debit';
  const answer = order.cardOnFile === undefined ? notSupported(operation) : await contract[operation](order);
  return uncertainDecisionOf(answer, environment) ?? decisionOf(answer, environment);
}
