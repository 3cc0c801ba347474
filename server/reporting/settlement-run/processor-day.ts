/**
 * A connector channel's day as its processor settled it (issue 32 point 6): the records each of
 * the channel's connectors reports for the day (the contract's `settle`), indexed so that each
 * of the gateway's transactions claims its own, once, by the processor's id (its ConnectorTxID1)
 * or else by the gateway's id the processor's record carries. What is left unclaimed at the end
 * of the day is what the processor settled that the gateway lacks.
 *
 * Memory: the processor's records of one channel's day are held (one entry per processor
 * payment, without personal data) while the day is settled.
 */
import type { Channel, ConnectorSettings } from '../../../shared/engine/core/model';
import type { SettlementTransaction } from '../../../shared/settlement';
import type { ProcessorSettlement } from '../../connectors/kit/contract';
import type { ContractOf } from './model';

/** The processor's records could not be read: the day is not settled now (the next run tries again). */
export class ProcessorRecordsUnavailable extends Error {
  constructor(
    readonly channelId: string,
    readonly date: string,
    reason: string,
  ) {
    super(
      `The processor's records of ${date} for channel ${channelId} ${reason}: not settled yet, try again later`,
    );
    this.name = 'ProcessorRecordsUnavailable';
  }
}

/** The processor's payment type a gateway transaction of `paymentType` is settled as. */
const REPORTED_AS: Readonly<Record<string, ProcessorSettlement['paymentType']>> = {
  DB: 'DB',
  CP: 'DB',
  RB: 'DB',
  RF: 'RF',
  CD: 'CD',
  CB: 'CB',
  CR: 'CR',
  PA: 'PA',
  RV: 'RV',
};

export class ProcessorDayIndex {
  private readonly byTheirId = new Map<string, ProcessorSettlement>();
  private readonly byGatewayId = new Map<string, ProcessorSettlement>();

  constructor(
    /** Whether the processor has settled the day at all. */
    readonly reported: boolean,
    settlements: Iterable<ProcessorSettlement>,
  ) {
    for (const s of settlements) {
      this.byTheirId.set(s.theirId, s);
      if (s.gatewayId !== undefined) this.byGatewayId.set(s.gatewayId, s);
    }
  }

  /** The processor's settlement of `tx` (then no other transaction's), if it reported one. */
  claim(tx: SettlementTransaction): ProcessorSettlement | undefined {
    const theirs = tx.clearing?.txId1;
    const found =
      (theirs === undefined ? undefined : this.byTheirId.get(theirs)) ?? this.byGatewayId.get(tx.id);
    if (found === undefined || REPORTED_AS[tx.paymentType] !== found.paymentType) return undefined;
    this.byTheirId.delete(found.theirId);
    if (found.gatewayId !== undefined) this.byGatewayId.delete(found.gatewayId);
    return found;
  }

  /** What no transaction of the gateway's claimed, in the processor's order of request. */
  unclaimed(): ProcessorSettlement[] {
    return [...this.byTheirId.values()].sort(
      (a, b) =>
        (a.requestTime?.getTime() ?? 0) - (b.requestTime?.getTime() ?? 0) || (a.theirId < b.theirId ? -1 : 1),
    );
  }
}

/** The connectors a channel's payments may have gone through: its routes', else its one. */
function connectorsOf(channel: Channel): ConnectorSettings[] {
  const routes = channel.settings.routes;
  if (routes !== undefined && routes.length > 0) return routes.map((r) => r.connector);
  return channel.settings.connector === undefined ? [] : [channel.settings.connector];
}

/**
 * The processor's day of a channel: undefined when the channel has no connector whose kind
 * reports its settlement (the run then settles as before). Throws ProcessorRecordsUnavailable
 * when a connector that reports could not be asked.
 */
export async function processorDay(
  contractOf: ContractOf,
  channel: Channel,
  date: string,
): Promise<ProcessorDayIndex | undefined> {
  const settlements: ProcessorSettlement[] = [];
  let supported = false;
  let reported = false;
  for (const settings of connectorsOf(channel)) {
    const contract = contractOf(settings);
    if (contract === undefined) continue;
    const answer = await contract.settle({ day: date });
    if ('notSupported' in answer) continue;
    if ('technical' in answer) throw new ProcessorRecordsUnavailable(channel.id, date, 'could not be read');
    supported = true;
    reported ||= answer.reported;
    settlements.push(...answer.settlements);
  }
  return supported ? new ProcessorDayIndex(reported, settlements) : undefined;
}
