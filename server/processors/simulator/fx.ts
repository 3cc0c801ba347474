/**
 * The simulated market of test mode INTERNAL: FX rates for the settlement run (and the Processor
 * port's fxRate of the simulator), from a fixed table of EUR rates; cross rates go through EUR.
 */
import { roundDiv } from '../../../shared/money';

/** The simulated market: EUR per one unit of each currency. Cross rates go through EUR. */
export const SIMULATED_EUR_RATES: Readonly<Record<string, string>> = {
  EUR: '1',
  USD: '0.9211',
  GBP: '1.1723',
  CHF: '1.0412',
  JPY: '0.0061',
  SEK: '0.0874',
  NOK: '0.0853',
  DKK: '0.1341',
  PLN: '0.2315',
  CZK: '0.0398',
  HUF: '0.0025',
  CAD: '0.6712',
  AUD: '0.6034',
  BHD: '2.4431',
  ZAR: '0.0507',
};

function decimal(value: string): { units: bigint; scale: number } {
  const dot = value.indexOf('.');
  return {
    units: BigInt(dot === -1 ? value : value.slice(0, dot) + value.slice(dot + 1)),
    scale: dot === -1 ? 0 : value.length - dot - 1,
  };
}

/**
 * The simulated rate from one currency into another: units of `to` per unit of `from`, 6 decimals
 * (half-even), trailing zeros dropped; `undefined` when the table lacks either currency.
 */
export function simulatedRate(from: string, to: string): string | undefined {
  const a = SIMULATED_EUR_RATES[from];
  const b = SIMULATED_EUR_RATES[to];
  if (a === undefined || b === undefined) return undefined;
  const x = decimal(a);
  const y = decimal(b);
  // (x.units / 10^x.scale) / (y.units / 10^y.scale), in millionths.
  const micros = roundDiv(
    x.units * 10n ** BigInt(y.scale) * 1_000_000n,
    y.units * 10n ** BigInt(x.scale),
    'halfEven',
  );
  const digits = micros.toString().padStart(7, '0');
  const text = `${digits.slice(0, -6)}.${digits.slice(-6)}`.replace(/0+$/, '').replace(/\.$/, '');
  return text === '0' ? undefined : text;
}
