/**
 * The dashboard's records (issue 34): a merchant's saved cards (registrations) listed,
 * deleted and moved to another route (server/backoffice/registrations/), the payments list exported as CSV
 * (backoffice/payments/export.ts, streamed a page at a time), the search box
 * (backoffice/search/: operators search everything, a merchant's users their merchant), and a
 * merchant's recent API requests (backoffice/requests/). Only things of this address's environment.
 */
import { environmentOf } from '../../../../shared/engine/core/model';
import { paymentsCsv } from '../../../backoffice/payments/export';
import { readListQuery } from '../../../backoffice/payments/payment-list';
import { moveRegistrations } from '../../../backoffice/registrations/move';
import { deleteRegistration, listRegistrations } from '../../../backoffice/registrations/registrations';
import { listApiRequests } from '../../../backoffice/requests/requests';
import { searchRecords } from '../../../backoffice/search/search';
import type { RouteDeps } from '../../context';
import { textStream } from '../reporting';
import { type AdminKit, param } from './shared';

/** The list's paging, which an export does without: it has every page. */
const PAGING = new Set(['limit', 'after']);

export function recordRoutes(deps: RouteDeps, kit: AdminKit): void {
  const { env, ok, route, act, invalid, merchantOf, notFound } = kit;
  const { store, environment } = deps;
  const storeCtx = (ctx: Parameters<Parameters<typeof act>[1]>[0]) => ({ ...ctx, store });

  route('GET', '/admin/v1/merchants/:merchantId/registrations', 'read', (c) =>
    act(c, async (ctx) => {
      const page = await listRegistrations(storeCtx(ctx), param(c, 'merchantId'), environment, (name) =>
        c.req.query(name),
      );
      return env.send(c, 200, ok, page);
    }),
  );

  route('DELETE', '/admin/v1/merchants/:merchantId/registrations/:id', 'write', (c) =>
    act(c, async (ctx) => {
      const deleted = await deleteRegistration(
        storeCtx(ctx),
        param(c, 'merchantId'),
        environment,
        param(c, 'id'),
      );
      return env.send(c, 200, ok, deleted);
    }),
  );

  // registrations moved to another route of their channel (as `gateway registration move`): the
  // operator's, as the channel's routes are
  route('POST', '/admin/v1/merchants/:merchantId/registrations/moves', 'operator', async (c) => {
    const input = await kit.body(c);
    if (input instanceof Response) return input;
    return act(c, async (ctx) =>
      env.send(
        c,
        200,
        ok,
        await moveRegistrations(storeCtx(ctx), param(c, 'merchantId'), environment, input),
      ),
    );
  });

  route('GET', '/admin/v1/merchants/:merchantId/payments.csv', 'read', async (c) => {
    const merchant = await merchantOf(c);
    if (merchant === undefined) return notFound(c, 'merchant');
    const filters = readListQuery((name) => (PAGING.has(name) ? undefined : c.req.query(name)));
    if (Array.isArray(filters)) return invalid(c, filters);
    const { limit: _limit, ...wanted } = filters;
    const channelIds = (await store.listChannels(merchant.id))
      .filter((ch) => environmentOf(ch.mode) === environment)
      .map((ch) => ch.id);
    const lines = paymentsCsv(store, { merchantId: merchant.id, channelIds }, wanted);
    return c.body(textStream(lines), 200, {
      'Content-Type': 'text/csv; charset=utf-8',
      'Content-Disposition': `attachment; filename="payments-${merchant.id}-${environment}.csv"`,
      'Cache-Control': 'no-store',
    });
  });

  route('GET', '/admin/v1/search', 'read', (c) =>
    act(c, async () => {
      const hits = await searchRecords(store, c.var.admin, environment, c.req.query('q'));
      return env.send(c, 200, ok, { results: hits });
    }),
  );

  route('GET', '/admin/v1/merchants/:merchantId/requests', 'read', (c) =>
    act(c, async () => {
      const requests = await listApiRequests(store, param(c, 'merchantId'), c.req.query('limit'));
      return env.send(c, 200, ok, { requests });
    }),
  );
}
