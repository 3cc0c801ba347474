/**
 * A RiskLedger in memory (a MemoryHistory per channel) for engine tests: the velocity history the
 * database adapters keep (server/storage/risk/), with the same per-key lock order.
 */
import { keyedLock, riskKeyNames, underKeys } from '../../../shared/engine/core/keyed-lock';
import type { RiskLedger } from '../../../shared/engine/core/ports';
import { MemoryHistory } from './memory-history';

export function memoryRiskLedger(): RiskLedger {
  const channels = new Map<string, MemoryHistory>();
  const lock = keyedLock();
  const ledger: RiskLedger = {
    async countRiskEvents(channelId, key, since) {
      return (await channels.get(channelId)?.count(key, since)) ?? { count: 0, volume: new Map() };
    },
    async recordRiskEvents(events) {
      for (const e of events) {
        let history = channels.get(e.channelId);
        if (history === undefined) {
          history = new MemoryHistory();
          channels.set(e.channelId, history);
        }
        history.add({ kind: e.kind, value: e.value }, e.currency, e.amount, e.at);
      }
    },
    exclusiveRiskKeys(channelId, keys, task) {
      return underKeys(lock, riskKeyNames(channelId, keys), async () => {
        const { result, events } = await task(ledger.countRiskEvents);
        await ledger.recordRiskEvents(events);
        return result;
      });
    },
  };
  return ledger;
}
