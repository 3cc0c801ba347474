/**
 * Which of a channel's routes take a payment: every rule a route gives must match (its brands, the
 * card's country from the BIN, its currencies, its amount range); in the channel's order.
 */
import type { ConnectorRoute } from '../../../shared/engine/core/model';
import type { BinInfo, PayOrder } from '../../../shared/engine/core/ports';
import { isToMinorError, type Minor, toMinor } from '../../../shared/money';

/** What the rules read of a payment. */
export interface RouteFacts {
  readonly brand?: string;
  readonly country?: string;
  readonly currency?: string;
  /** Minor units. */
  readonly amount?: Minor;
}

export type BinLookup = (bin: string) => BinInfo | undefined;

/** The facts of an initial payment or a registration: its request's brand and currency, the card's BIN country. */
export function factsOf(order: Pick<PayOrder, 'request' | 'decide'>, binInfo?: BinLookup): RouteFacts {
  const request = order.request as { paymentBrand?: unknown; currency?: unknown; amount?: unknown };
  const instrument = order.decide.instrument;
  const brand =
    typeof request.paymentBrand === 'string'
      ? request.paymentBrand
      : 'brand' in instrument
        ? instrument.brand
        : undefined;
  const number = instrument.kind === 'card' ? instrument.number : undefined;
  const country = number === undefined ? undefined : binInfo?.(number.slice(0, 6))?.country;
  const currency = typeof request.currency === 'string' ? request.currency : undefined;
  const minor =
    typeof request.amount === 'string' && currency !== undefined
      ? toMinor(request.amount, currency)
      : undefined;
  const amount = minor === undefined || isToMinorError(minor) ? undefined : minor;
  return {
    ...(brand === undefined ? {} : { brand }),
    ...(country === undefined ? {} : { country }),
    ...(currency === undefined ? {} : { currency }),
    ...(amount === undefined ? {} : { amount }),
  };
}

/** Whether a route takes a payment of these facts; a rule a payment cannot be judged by does not match. */
export function takes(route: ConnectorRoute, facts: RouteFacts): boolean {
  const within = (list: readonly string[] | undefined, value: string | undefined) =>
    list === undefined || (value !== undefined && list.includes(value));
  if (!within(route.brands, facts.brand)) return false;
  if (!within(route.countries, facts.country)) return false;
  if (!within(route.currencies, facts.currency)) return false;
  const { minAmount, maxAmount } = route;
  if (minAmount === undefined && maxAmount === undefined) return true;
  if (facts.amount === undefined) return false;
  return (
    (minAmount === undefined || facts.amount >= minAmount) &&
    (maxAmount === undefined || facts.amount <= maxAmount)
  );
}
