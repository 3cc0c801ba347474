/**
 * The demo shop's webhook receiver, as a merchant would run one: `POST /webhooks` answers 200 to
 * every notification and keeps the last ones; `GET /webhooks` shows them. A notification in
 * plain JSON is shown as it came; an encrypted one (the default) as its size and headers, since
 * only the merchant's key opens it (see the README for the few lines that decrypt it).
 */
import type { Hono } from 'hono';

const KEPT = 100;

interface Received {
  readonly receivedAt: string;
  readonly encrypted: boolean;
  readonly bytes: number;
  readonly notification?: unknown;
  readonly initializationVector?: string;
  readonly authenticationTag?: string;
}

export function webhookReceiver(app: Hono): void {
  const received: Received[] = [];
  app.post('/webhooks', async (c) => {
    const body = await c.req.text();
    const iv = c.req.header('x-initialization-vector');
    const tag = c.req.header('x-authentication-tag');
    let notification: unknown;
    if (iv === undefined) {
      try {
        notification = JSON.parse(body);
      } catch {}
    }
    received.push({
      receivedAt: new Date().toISOString(),
      encrypted: iv !== undefined,
      bytes: body.length,
      ...(notification === undefined ? {} : { notification }),
      ...(iv === undefined ? {} : { initializationVector: iv }),
      ...(tag === undefined ? {} : { authenticationTag: tag }),
    });
    if (received.length > KEPT) received.splice(0, received.length - KEPT);
    return c.text('OK');
  });
  app.get('/webhooks', (c) => c.json({ received }));
}
