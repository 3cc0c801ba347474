/**
 * A scripted upstream for the fault matrix (issue 32 point 5): a real HTTP server on 127.0.0.1
 * speaking just enough of the family's API (POST /v1/payments, /v1/payments/{id}, /v1/registrations
 * and /v1/registrations/{id}/payments, GET /v1/query by
 * merchantTransactionId) to stand for a connector's processor, that counts the charges it made
 * (a registration made counts as one, of type RG) and answers the payment or registration in the
 * way a fault scripts: on time, late, cut off, as a 500, as garbage
 * or trickled past the client's timeout. The charge is made (or not) before the answer goes
 * wrong, as a processor's would be.
 */
import { once } from 'node:events';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export type Fault =
  /** answered at once: the control row */
  | 'none'
  /** charged, answered well after the client's timeout */
  | 'delay'
  /** charged, the connection reset halfway through the answer */
  | 'reset'
  /** charged, answered 500; the first inquiry is answered 500 too (the processor still down) */
  | 'error500'
  /** charged, answered 200 with bytes that are not JSON */
  | 'garbage'
  /** charged, the answer's head at once and its body a byte at a time, past the timeout */
  | 'trickle'
  /** declined, the answer lost past the timeout: the inquiry finds the decline */
  | 'declined-late'
  /** never charged, the connection reset before any answer: the inquiry finds nothing */
  | 'lost';

export interface Charge {
  readonly id: string;
  readonly merchantTransactionId: string;
  readonly paymentType: string;
  readonly amount: string;
  readonly currency: string;
  readonly code: string;
  readonly at: number;
}

export interface ScriptedUpstream {
  readonly baseUrl: string;
  /** How the next payment is answered. */
  script(fault: Fault): void;
  /** The charges made (successful payments, and registrations: paymentType RG), by merchantTransactionId when given. */
  charges(merchantTransactionId?: string): readonly Charge[];
  /** How many POST /v1/payments came (charged or not). */
  readonly received: () => number;
  readonly queries: () => number;
  /** While down, every query is answered 503 (the processor's status API unavailable). */
  queriesDown(down: boolean): void;
  close(): Promise<void>;
}

export interface UpstreamOptions {
  /** The client's timeout the faults must outlast (ms). */
  readonly timeoutMs: number;
}

const SUCCESS = '000.100.110';
const DECLINED = '800.100.151';
const json = (body: unknown) => JSON.stringify(body);

async function formOf(request: IncomingMessage): Promise<URLSearchParams> {
  let text = '';
  for await (const chunk of request) text += chunk;
  return new URLSearchParams(text);
}

export async function scriptedUpstream(options: UpstreamOptions): Promise<ScriptedUpstream> {
  const made: Charge[] = [];
  const recorded: Charge[] = [];
  let next: Fault = 'none';
  let received = 0;
  let queries = 0;
  let failingQueries = 0;
  let queriesDown = false;
  let sequence = 0;
  const timers = new Set<ReturnType<typeof setTimeout>>();
  const later = (ms: number, run: () => void) => {
    const timer = setTimeout(() => {
      timers.delete(timer);
      run();
    }, ms);
    timers.add(timer);
  };

  /** Registrations made along with a payment (createRegistration=true): the payment's id → the registration's. */
  const along = new Map<string, string>();
  const registered = (charge: Charge): string => {
    const id = `reg${String(++sequence).padStart(6, '0')}`;
    made.push({ ...charge, id });
    return id;
  };

  function answerOf(charge: Charge) {
    const registrationId = along.get(charge.id);
    return {
      ...(registrationId === undefined ? {} : { registrationId }),
      id: charge.id,
      paymentType: charge.paymentType,
      amount: charge.amount,
      currency: charge.currency,
      merchantTransactionId: charge.merchantTransactionId,
      result: { code: charge.code, description: charge.code === SUCCESS ? 'approved' : 'declined' },
      resultDetails: { AcquirerResponse: charge.code === SUCCESS ? '00' : '05' },
    };
  }

  async function pay(
    request: IncomingMessage,
    response: ServerResponse,
    registration = false,
  ): Promise<void> {
    received++;
    const body = await formOf(request);
    const fault = next;
    next = 'none';
    const charge: Charge = {
      id: `${registration ? 'reg' : 'up'}${String(++sequence).padStart(6, '0')}`,
      merchantTransactionId: body.get('merchantTransactionId') ?? '',
      // a registration is the upstream's transaction of type RG, found by the Query API alike
      paymentType: registration ? 'RG' : (body.get('paymentType') ?? 'DB'),
      amount: body.get('amount') ?? '',
      currency: body.get('currency') ?? '',
      code: fault === 'declined-late' ? DECLINED : SUCCESS,
      at: Date.now(),
    };
    if (fault !== 'lost') recorded.push(charge);
    if (fault !== 'lost' && charge.code === SUCCESS) made.push(charge);
    // createRegistration=true: the card registered along, answered (and found by the Query API) as registrationId
    if (
      !registration &&
      body.get('createRegistration') === 'true' &&
      charge.code === SUCCESS &&
      fault !== 'lost'
    )
      along.set(charge.id, registered({ ...charge, paymentType: 'RG' }));
    const text = json(answerOf(charge));
    const head = () => response.writeHead(200, { 'Content-Type': 'application/json' });
    const late = options.timeoutMs * 3;
    switch (fault) {
      case 'none':
        head();
        response.end(text);
        return;
      case 'delay':
      case 'declined-late':
        later(late, () => {
          head();
          response.end(text);
        });
        return;
      case 'reset':
        head();
        response.write(text.slice(0, text.length / 2));
        later(10, () => response.socket?.destroy());
        return;
      case 'lost':
        request.socket.destroy();
        return;
      case 'error500':
        failingQueries = 1;
        response.writeHead(500, { 'Content-Type': 'text/html' });
        response.end('<html><body>502 Bad Gateway</body></html>');
        return;
      case 'garbage':
        response.writeHead(200, { 'Content-Type': 'application/json' });
        response.end(Buffer.from([0x00, 0xff, 0x7b, 0x22, 0xfe, 0x13, 0x88]));
        return;
      case 'trickle': {
        head();
        let at = 0;
        const step = Math.max(5, Math.ceil(late / text.length));
        const drip = () => {
          if (response.destroyed) return;
          if (at >= text.length) return void response.end();
          response.write(text[at++]);
          later(step, drip);
        };
        drip();
        return;
      }
    }
  }

  function query(url: URL, response: ServerResponse): void {
    queries++;
    if (queriesDown || failingQueries > 0) {
      if (!queriesDown) failingQueries--;
      response.writeHead(503, { 'Content-Type': 'text/plain' });
      response.end('unavailable');
      return;
    }
    const id = url.searchParams.get('merchantTransactionId');
    const found = recorded.filter((c) => c.merchantTransactionId === id);
    response.writeHead(200, { 'Content-Type': 'application/json' });
    response.end(json({ result: { code: '000.000.100' }, payments: found.map(answerOf) }));
  }

  const server = createServer((request, response) => {
    const url = new URL(request.url ?? '/', 'http://upstream');
    // a payment, or a capture, refund, reversal of one (POST /v1/payments/{its id}): scripted alike
    if (request.method === 'POST' && /^\/v1\/payments(\/[^/]+)?$/.test(url.pathname)) {
      pay(request, response).catch(() => response.destroy());
      return;
    }
    // a registration, scripted as any payment (its charge: the registration made); payments with it too
    if (request.method === 'POST' && url.pathname === '/v1/registrations') {
      pay(request, response, true).catch(() => response.destroy());
      return;
    }
    const withRegistration = /^\/v1\/registrations\/([^/]+)\/payments$/.exec(url.pathname);
    if (request.method === 'POST' && withRegistration !== null) {
      // only a registration it made can be paid with (by its own id)
      if (!made.some((c) => c.paymentType === 'RG' && c.id === withRegistration[1])) {
        response.writeHead(400, { 'Content-Type': 'application/json' });
        response.end(json({ result: { code: '100.150.200', description: 'registration does not exist' } }));
        return;
      }
      pay(request, response).catch(() => response.destroy());
      return;
    }
    if (request.method === 'GET' && url.pathname === '/v1/query') return query(url, response);
    response.writeHead(404, { 'Content-Type': 'application/json' });
    response.end(json({ result: { code: '200.300.404' } }));
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const { port } = server.address() as AddressInfo;
  return {
    baseUrl: `http://127.0.0.1:${port}`,
    script: (fault) => {
      next = fault;
    },
    charges: (id) => (id === undefined ? made : made.filter((c) => c.merchantTransactionId === id)),
    received: () => received,
    queries: () => queries,
    queriesDown: (down) => {
      queriesDown = down;
    },
    async close() {
      for (const timer of timers) clearTimeout(timer);
      server.closeAllConnections();
      server.close();
      await once(server, 'close').catch(() => undefined);
    },
  };
}
