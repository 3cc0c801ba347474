/**
 * A merchant's webhook receiver for tests: a real HTTP server on 127.0.0.1 and a random port
 * that records every request and answers with the status the test chooses (by default 200;
 * `failNext(n)` makes the next n requests fail with 500), and the decryption a merchant writes.
 */
import { createServer, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface Received {
  readonly method: string;
  /** Path and query string. */
  readonly url: string;
  readonly headers: IncomingHttpHeaders;
  readonly body: string;
  /** The status it was answered with; 0 while held, or when the sender went before the answer. */
  readonly answered: number;
}

type Mutable<T> = { -readonly [K in keyof T]: T[K] };

export async function startReceiver() {
  const received: Received[] = [];
  let failing = 0;
  let status = 200;
  let holding = false;
  const held: (() => void)[] = [];
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const answered = failing > 0 ? 500 : status;
      if (failing > 0) failing--;
      const record: Mutable<Received> = {
        method: req.method ?? '',
        url: req.url ?? '',
        headers: req.headers,
        body: Buffer.concat(chunks).toString('utf8'),
        answered: holding ? 0 : answered,
      };
      received.push(record);
      const answer = () => {
        // A sender that has gone (killed, timed out) never sees the answer: it stays unacknowledged.
        if (res.destroyed || req.socket.destroyed) return;
        record.answered = answered;
        res.writeHead(answered, { 'Content-Type': 'text/plain' }).end(answered < 300 ? 'OK' : 'no');
      };
      if (holding) held.push(answer);
      else answer();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    received,
    /** The next n requests are answered 500. */
    failNext(n: number) {
      failing = n;
    },
    /**
     * While on, requests are recorded (answered: 0) but not answered; turning it off answers the
     * held ones whose sender is still connected.
     */
    hold(on: boolean) {
      holding = on;
      if (!on) for (const answer of held.splice(0)) answer();
    },
    /** What every later request is answered with. */
    answerWith(code: number) {
      status = code;
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

export type Receiver = Awaited<ReturnType<typeof startReceiver>>;
