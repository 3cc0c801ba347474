/**
 * The day's figures of the dashboard's home page (issue 34 point 2): for one merchant or, for an
 * operator, every merchant, the day's initial payments (PA, DB: what shoppers paid, not the
 * captures and refunds on them) on the channels of the address's environment, hour by hour (UTC,
 * the gateway's time base): the volume taken per currency (the successful payments' amounts,
 * summed in minor units as integers and written as decimals of the currency's exponent, never
 * through a float), the attempts, successes and declines, and the same by brand. A status is the payments
 * list's (payment-list.ts `paymentStatus`): one meaning of "success" and "declined" everywhere.
 *
 * The day is read as the payments list reads it: one range scan per channel of the
 * `payments_channel_created` index (storage/payments/list.ts), in keyset pages.
 */
import type { Channel, Payment } from '../../../shared/engine/core/model';
import { exponentOf } from '../../../shared/money';
import type { PaymentListStore } from '../../storage/payments/list';
import type { FieldError } from '../errors';
import { paymentStatus } from '../payments/payment-list';

const HOUR = 3_600_000;
const DAY = 24 * HOUR;
/** Rows per keyset page of the day's scan. */
const PAGE = 500;
/** The payment types that are a shopper's payment (the others reference one). */
const INITIAL = new Set(['PA', 'DB']);

/** Counts of one hour, one brand, or the whole day. */
export interface Counts {
  /** Initial payments made. */
  readonly payments: number;
  readonly success: number;
  readonly declined: number;
  /** Refused by the gateway or the processor for another reason (invalid data, risk, …). */
  readonly rejected: number;
  readonly pending: number;
}

/** success / finished and declined / finished, 4 decimals; null when none finished. */
export interface Rates {
  readonly successRate: number | null;
  readonly declineRate: number | null;
}

export interface CurrencyVolume {
  readonly currency: string;
  /** The day's volume taken: a decimal with the currency's exponent (EUR "15.00", JPY "1500"). */
  readonly amount: string;
  /** Hour by hour (24 entries, 00:00 UTC first). */
  readonly hours: readonly string[];
}

export interface BrandFigures extends Counts, Rates {
  readonly brand: string;
  readonly volume: readonly { readonly currency: string; readonly amount: string }[];
}

export interface DayFigures extends Counts, Rates {
  /** yyyy-MM-dd (UTC). */
  readonly day: string;
  /** The merchant the figures are of; null: every merchant. */
  readonly merchantId: string | null;
  readonly volume: readonly CurrencyVolume[];
  /** Hour by hour (24 entries, 00:00 UTC first). */
  readonly hours: readonly (Counts & { readonly hour: number })[];
  readonly brands: readonly BrandFigures[];
}

/** The `day` query parameter: yyyy-MM-dd, a real date; absent: the gateway's today. */
export function readDay(text: string | undefined, now: Date): number | FieldError {
  if (text === undefined) return Math.floor(now.getTime() / DAY) * DAY;
  const t = /^[0-9]{4}-[0-9]{2}-[0-9]{2}$/.test(text) ? Date.parse(`${text}T00:00:00Z`) : Number.NaN;
  if (Number.isNaN(t) || new Date(t).toISOString().slice(0, 10) !== text)
    return { name: 'day', value: text, message: 'must be a date (yyyy-MM-dd, UTC)' };
  return t;
}

type MutableCounts = { -readonly [K in keyof Counts]: Counts[K] };
const zero = (): MutableCounts => ({ payments: 0, success: 0, declined: 0, rejected: 0, pending: 0 });

function count(into: MutableCounts, p: Payment): void {
  into.payments++;
  into[paymentStatus(p.resultCode)]++;
}

const rate = (part: number, whole: number) => (whole === 0 ? null : Math.round((part / whole) * 1e4) / 1e4);
function rates(c: Counts): Rates {
  const finished = c.success + c.declined + c.rejected;
  return { successRate: rate(c.success, finished), declineRate: rate(c.declined, finished) };
}

/** Sums in minor units (bigint: a day of a busy merchant may pass 2^53 in a small currency). */
class Sums {
  private readonly by = new Map<string, bigint>();
  add(key: string, minor: number) {
    this.by.set(key, (this.by.get(key) ?? 0n) + BigInt(minor));
  }
  amount(key: string, currency: string): string {
    return decimal(this.by.get(key) ?? 0n, exponentOf(currency) ?? 2);
  }
}

/** Minor units as a decimal of `exponent` places (JPY 1500 → "1500", EUR 1500 → "15.00", BHD → 3). */
export function decimal(minor: bigint, exponent: number): string {
  if (exponent === 0) return minor.toString();
  const digits = minor.toString().padStart(exponent + 1, '0');
  return `${digits.slice(0, -exponent)}.${digits.slice(-exponent)}`;
}

/** The day's figures of these channels' payments from `dayStart` (epoch ms, 00:00 UTC). */
export async function dayFigures(
  store: PaymentListStore,
  scope: { readonly merchantId: string | null; readonly channels: readonly Channel[] },
  dayStart: number,
): Promise<DayFigures> {
  const day = zero();
  const hours = Array.from({ length: 24 }, zero);
  const brands = new Map<string, MutableCounts>();
  const sums = new Sums();
  const currencies = new Set<string>();
  const brandCurrencies = new Map<string, Set<string>>();
  await eachPayment(store, scope.channels, dayStart, (p) => {
    if (!INITIAL.has(p.paymentType) || p.referencedId !== undefined) return;
    const hour = Math.floor((p.createdAt.getTime() - dayStart) / HOUR);
    const brand = p.paymentBrand ?? 'unknown';
    if (!brands.has(brand)) brands.set(brand, zero());
    for (const c of [day, hours[hour]!, brands.get(brand)!]) count(c, p);
    if (paymentStatus(p.resultCode) !== 'success' || p.amount === null || p.currency === undefined) return;
    currencies.add(p.currency);
    if (!brandCurrencies.has(brand)) brandCurrencies.set(brand, new Set());
    brandCurrencies.get(brand)!.add(p.currency);
    sums.add(p.currency, p.amount);
    sums.add(`${p.currency}@${hour}`, p.amount);
    sums.add(`${p.currency}#${brand}`, p.amount);
  });
  return {
    day: new Date(dayStart).toISOString().slice(0, 10),
    merchantId: scope.merchantId,
    ...day,
    ...rates(day),
    volume: [...currencies].sort().map((currency) => ({
      currency,
      amount: sums.amount(currency, currency),
      hours: hours.map((_, h) => sums.amount(`${currency}@${h}`, currency)),
    })),
    hours: hours.map((c, hour) => ({ hour, ...c })),
    brands: [...brands]
      .sort(([a, x], [b, y]) => y.payments - x.payments || (a < b ? -1 : 1))
      .map(([brand, c]) => ({
        brand,
        ...c,
        ...rates(c),
        volume: [...(brandCurrencies.get(brand) ?? [])].sort().map((currency) => ({
          currency,
          amount: sums.amount(`${currency}#${brand}`, currency),
        })),
      })),
  };
}

/** Every payment of the day on these channels, channel by channel, newest first, in keyset pages. */
async function eachPayment(
  store: PaymentListStore,
  channels: readonly Channel[],
  dayStart: number,
  visit: (p: Payment) => void,
): Promise<void> {
  for (const channel of channels) {
    let before: { at: number; id: string } | undefined;
    for (;;) {
      const page = await store.listPaymentsPage({
        merchantId: channel.merchantId,
        channelIds: [channel.id],
        from: dayStart,
        to: dayStart + DAY,
        limit: PAGE,
        ...(before === undefined ? {} : { before }),
      });
      for (const p of page) visit(p);
      const last = page[page.length - 1];
      if (page.length < PAGE || last === undefined) break;
      before = { at: last.createdAt.getTime(), id: last.id };
    }
  }
}
