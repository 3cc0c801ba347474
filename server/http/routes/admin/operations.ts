/**
 * What runs beside the payments, per merchant: settlement files (the day's reconciliation CSV,
 * rebuilt from the stored records exactly as the run wrote it), a past day settled by hand, a channel's risk rules (checked
 * by shared/risk checkRules; every fault named) and scheduled payments (listed, descheduled
 * through the engine as DELETE /scheduling/v1/schedules/{id}).
 */
import type { Context } from 'hono';
import { environmentOf } from '../../../../shared/engine/core/model';
import { deschedule } from '../../../../shared/engine/operations/schedules';
import { ResultCodes } from '../../../../shared/result-codes';
import { displayAmount } from '../../../backoffice/payments/payment-list';
import { parseRiskRules, setRiskRules } from '../../../backoffice/risk/rules';
import { parseSettlementRun, runSettlement } from '../../../backoffice/settlement/runs';
import { csvOptions, reconciliationFileName } from '../../../reporting/settlement-run/model';
import type { StoredSettlementRecord } from '../../../storage/settlements';
import type { RouteDeps } from '../../context';
import { csvLines, textStream } from '../reporting';
import { channelFor } from './channels';
import { type AdminDeps, type AdminKit, param } from './shared';

const DAY = /^[0-9]{4}-[0-9]{2}-[0-9]{2}$/;
const DAYS_LISTED = 93;
const SCHEDULES_LISTED = 500;

export function operationRoutes(deps: RouteDeps, admin: AdminDeps, kit: AdminKit): void {
  settlementRoutes(deps, kit);
  settlementRunRoute(deps, admin, kit);
  riskRoutes(deps, kit);
  scheduleRoutes(deps, kit);
}

const channelsOfEnvironment = async (deps: RouteDeps, merchantId: string) =>
  (await deps.store.listChannels(merchantId)).filter((ch) => environmentOf(ch.mode) === deps.environment);

function settlementRoutes(deps: RouteDeps, kit: AdminKit): void {
  const { env, ok, notFound, invalid, merchantOf, route } = kit;
  const day = (t: number) => new Date(t).toISOString().slice(0, 10);

  route('GET', '/admin/v1/merchants/:merchantId/settlements', 'read', async (c) => {
    const merchant = await merchantOf(c);
    if (merchant === undefined) return notFound(c, 'merchant');
    const to = c.req.query('to') ?? day(deps.clock.now().getTime());
    const from = c.req.query('from') ?? day(Date.parse(`${to}T00:00:00Z`) - DAYS_LISTED * 86_400_000);
    const errors = (['from', 'to'] as const)
      .filter((name) => !DAY.test(name === 'from' ? from : to))
      .map((name) => ({ name, value: name === 'from' ? from : to, message: 'must be a date (yyyy-MM-dd)' }));
    if (errors.length > 0) return invalid(c, errors);
    const channels = await channelsOfEnvironment(deps, merchant.id);
    const settlements = await deps.store.listSettlements({
      merchantId: merchant.id,
      channelIds: channels.map((ch) => ch.id),
      from,
      to,
    });
    const files = new Map<string, { date: string; entityId: string; records: number; createdAt: string }>();
    for (const s of settlements) {
      const key = `${s.date} ${s.channelId}`;
      const file = files.get(key);
      if (file === undefined)
        files.set(key, {
          date: s.date,
          entityId: s.channelId,
          records: s.recordCount,
          createdAt: s.createdAt.toISOString(),
        });
      else files.set(key, { ...file, records: file.records + s.recordCount });
    }
    return env.send(c, 200, ok, { files: [...files.values()].reverse() });
  });

  route('GET', '/admin/v1/merchants/:merchantId/settlements/:date/file', 'read', async (c: Context) => {
    const date = param(c, 'date');
    const entityId = c.req.query('entityId');
    const channels = await channelsOfEnvironment(deps, param(c, 'merchantId'));
    const candidates = channels.filter((ch) => entityId === undefined || ch.id === entityId);
    if (!DAY.test(date))
      return invalid(c, [{ name: 'date', value: date, message: 'must be a date (yyyy-MM-dd)' }]);
    const withFile = [];
    for (const ch of candidates) {
      const settlements = await deps.store.listDaySettlements(ch.id, date);
      if (settlements.length > 0) withFile.push({ channel: ch, settlements });
    }
    if (withFile.length === 0) return notFound(c, 'settlement file');
    if (withFile.length > 1)
      return invalid(c, [
        { name: 'entityId', value: null, message: 'several channels settled that day: name one' },
      ]);
    const { channel, settlements } = withFile[0]!;
    // the day's file as the run writes it (currencies in order, each in stored order), streamed a
    // page of records at a time: memory does not grow with the day
    const store = deps.store;
    async function* pages(): AsyncGenerator<StoredSettlementRecord[]> {
      for (const s of [...settlements].sort((a, b) => (a.currency < b.currency ? -1 : 1)))
        yield* store.settlementRecordPages(s.id);
    }
    return c.body(textStream(csvLines(pages(), csvOptions())), 200, {
      'Content-Type': 'text/csv; charset=utf-8',
      'Content-Disposition': `attachment; filename="${reconciliationFileName(channel.id, date, channel.mode)}"`,
      'Cache-Control': 'no-store',
    });
  });
}

/** A past day settled by hand, as `gateway settlement run` (server/backoffice/settlement/runs.ts). */
function settlementRunRoute(deps: RouteDeps, admin: AdminDeps, kit: AdminKit): void {
  const { env, ok, body, route, act } = kit;
  route('POST', '/admin/v1/merchants/:merchantId/settlement-runs', 'operator', async (c) => {
    const input = await body(c);
    if (input instanceof Response) return input;
    const { dataDir } = admin;
    if (dataDir === undefined)
      return env.send(c, 400, {
        code: ResultCodes.INVALID_PARAMETER,
        description: 'the gateway has no data folder: cannot write reconciliation files',
      });
    return act(c, async (ctx) => {
      const run = parseSettlementRun({ ...input, merchantId: param(c, 'merchantId') });
      const { contractOf } = admin;
      const accounts = await runSettlement(
        { ...ctx, store: deps.store, dataDir, ...(contractOf === undefined ? {} : { contractOf }) },
        run,
      );
      return env.send(c, 200, ok, { accounts });
    });
  });
}

function riskRoutes(deps: RouteDeps, kit: AdminKit): void {
  const { env, ok, notFound, invalid, body, route, act } = kit;

  route('GET', '/admin/v1/channels/:entityId/risk-rules', 'read', async (c) => {
    const channel = await channelFor(deps, c);
    if (channel === undefined) return notFound(c, 'channel');
    return env.send(c, 200, ok, { rules: channel.settings.risk ?? null });
  });

  route('PUT', '/admin/v1/channels/:entityId/risk-rules', 'write', async (c) => {
    const channel = await channelFor(deps, c);
    if (channel === undefined) return notFound(c, 'channel');
    const input = await body(c);
    if (input instanceof Response) return input;
    if (!('rules' in input))
      return invalid(c, [{ name: 'rules', value: null, message: 'is required (null removes the rules)' }]);
    return act(c, async (ctx) => {
      const updated = await setRiskRules(ctx, channel, parseRiskRules(input.rules));
      return env.send(c, 200, ok, { rules: updated.settings.risk ?? null });
    });
  });
}

function scheduleRoutes(deps: RouteDeps, kit: AdminKit): void {
  const { env, ok, notFound, merchantOf, route, audit } = kit;

  route('GET', '/admin/v1/merchants/:merchantId/schedules', 'read', async (c) => {
    const merchant = await merchantOf(c);
    if (merchant === undefined) return notFound(c, 'merchant');
    const channels = await channelsOfEnvironment(deps, merchant.id);
    const schedules = await deps.store.listMerchantSchedules(
      merchant.id,
      channels.map((ch) => ch.id),
      SCHEDULES_LISTED,
    );
    return env.send(c, 200, ok, {
      schedules: schedules.map((s) => ({
        id: s.id,
        state: s.state,
        paymentType: s.paymentType,
        amount: displayAmount(s),
        currency: s.currency,
        job: s.job,
        nextFireAt: s.nextRunAt?.toISOString() ?? null,
        registrationId: s.registrationId,
        entityId: s.channelId,
      })),
    });
  });

  route('DELETE', '/admin/v1/merchants/:merchantId/schedules/:id', 'write', async (c) => {
    const merchantId = param(c, 'merchantId');
    const ids = new Set((await channelsOfEnvironment(deps, merchantId)).map((ch) => ch.id));
    const outcome = await deschedule(deps, (s) => ids.has(s.channelId), merchantId, param(c, 'id'));
    if (outcome.kind === 'not-found') return notFound(c, 'schedule');
    if (outcome.kind === 'refused')
      return env.send(c, 400, {
        code: outcome.code,
        description: 'the schedule is not active (ended or descheduled)',
      });
    await audit(c, 'schedule.deschedule', param(c, 'id'), merchantId);
    return env.send(c, 200, ok, { id: param(c, 'id'), state: outcome.view.schedule.state });
  });
}
