/**
 * `RiskHistory` in memory, for the risk screen's and the engine's tests. Storage adapters implement
 * the same port (count and sum the payments of one key at or after a time).
 */
import {
  type HistoryCount,
  type HistoryKey,
  type RiskFacts,
  type RiskHistory,
  screenedAmount,
  velocityKeys,
} from '../../../shared/risk/screen';

interface Entry {
  kind: HistoryKey['kind'];
  value: string;
  currency: string;
  amount: number;
  at: number;
}

export class MemoryHistory implements RiskHistory {
  readonly #entries: Entry[] = [];

  /** Records one payment under one key (already normalised, see `velocityKeys`). */
  add(key: HistoryKey, currency: string, amount: number, at: Date): void {
    if (!Number.isSafeInteger(amount) || amount < 0) {
      throw new RangeError(`amount must be a non-negative integer of minor units, got ${amount}`);
    }
    this.#entries.push({ kind: key.kind, value: key.value, currency, amount, at: at.getTime() });
  }

  /** Records an accepted payment under every key its facts carry, with the amount that was screened. */
  record(facts: RiskFacts, at: Date): void {
    for (const key of velocityKeys(facts)) this.add(key, facts.currency, screenedAmount(facts), at);
  }

  async count(key: HistoryKey, since: Date): Promise<HistoryCount> {
    const from = since.getTime();
    const volume = new Map<string, number>();
    let count = 0;
    for (const e of this.#entries) {
      if (e.kind !== key.kind || e.value !== key.value || e.at < from) continue;
      count += 1;
      volume.set(e.currency, (volume.get(e.currency) ?? 0) + e.amount);
    }
    return { count, volume };
  }
}
