/**
 * The HTTP layer: a Hono app. Routes answer in the family's JSON envelope; unknown paths get a
 * JSON 404. Repeated slashes route like single ones (clients build `base + "/" + resourcePath`).
 */
import { Hono } from 'hono';
import { ResultCodes, resultCodesResponse } from '../shared/result-codes';
import { buildNumber, JSON_HEADERS, newNdc, type Result, timestamp } from './http/envelope';

export interface AppOptions {
  readonly commit: string;
  readonly builtAt: Date;
  readonly now?: () => Date;
}

export function createApp(options: AppOptions): Hono {
  const build = buildNumber(options.commit, options.builtAt);
  const now = options.now ?? (() => new Date());
  const app = new Hono({ getPath: (req) => normalizePath(new URL(req.url).pathname) });

  const envelope = (result: Result, body: object = {}, ndc = newNdc()) =>
    JSON.stringify({ ...body, result, buildNumber: build, timestamp: timestamp(now()), ndc });

  app.get('/v1/resultcodes', (c) =>
    c.body(
      envelope(
        { code: ResultCodes.SUCCESSFUL_REQUEST, description: 'successful request' },
        resultCodesResponse(),
      ),
      200,
      JSON_HEADERS,
    ),
  );

  app.notFound((c) =>
    c.body(
      envelope({ code: ResultCodes.ENTITY_NOT_FOUND, description: 'No resource found at this path' }),
      404,
      JSON_HEADERS,
    ),
  );
  return app;
}

/** `//v1//payments/` → `/v1/payments/`. */
export const normalizePath = (path: string): string => path.replace(/\/{2,}/g, '/');
