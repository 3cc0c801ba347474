/**
 * The fault matrix (issue 32 point 5, acceptance): each case is one payment (or registration:
 * REGISTRATION_MATRIX) through a connector
 * channel whose upstream (upstream.ts) misbehaves as scripted; whatever the fault, the merchant
 * is answered pending (000.200.000), an Idempotency-Key retry meanwhile is answered the same and
 * sends nothing, the gateway's inquiry ends the payment with the upstream's truth, and the
 * upstream holds exactly the charges it should (one, or none when it never received the payment).
 * `runCase` drives a gateway through `MatrixDriver` (in process, or spawned processes);
 * `matrixTable` prints the rows for the closing note.
 */
import type { Fault, ScriptedUpstream } from './upstream';

export interface MatrixCase {
  readonly fault: Fault;
  readonly label: string;
  /** The final result code in test mode EXTERNAL. */
  readonly final: string;
  readonly charges: 0 | 1;
  /**
   * A capture or refund of a payment answered in time (PA, DB), or a payment with a registration
   * made in time, instead of an initial payment; `register`: a stand-alone registration
   * (POST /v1/registrations), whose charge upstream is the registration made.
   */
  readonly operation?: ReferenceType | 'register';
}

/** A capture, a refund, or a payment with a registration (of a card registered in time). */
export type ReferenceType = 'CP' | 'RF' | 'registration';

/** Captures, refunds and a payment with a registration, under the faults an uncertain answer is most often made of. */
export const REFERENCE_MATRIX: readonly MatrixCase[] = [
  {
    operation: 'CP',
    fault: 'delay',
    label: 'capture: delay past the timeout, then success',
    final: '000.100.112',
    charges: 1,
  },
  {
    operation: 'CP',
    fault: 'error500',
    label: 'capture: 500, then success',
    final: '000.100.112',
    charges: 1,
  },
  {
    operation: 'RF',
    fault: 'delay',
    label: 'refund: delay past the timeout, then success',
    final: '000.100.112',
    charges: 1,
  },
  {
    operation: 'RF',
    fault: 'error500',
    label: 'refund: 500, then success',
    final: '000.100.112',
    charges: 1,
  },
  {
    operation: 'registration',
    fault: 'delay',
    label: 'payment with a registration: delay past the timeout, then success',
    final: '000.100.112',
    charges: 1,
  },
];

/**
 * A stand-alone registration under the faults (an uncertain RG is pending, never a failure): the
 * inquiry makes it usable (000.100.112), or answers the upstream's refusal, or 900.100.400 when
 * the upstream never received it; one registration upstream at most.
 */
export const REGISTRATION_MATRIX: readonly MatrixCase[] = [
  {
    operation: 'register',
    fault: 'none',
    label: 'registration: answered in time',
    final: '000.100.112',
    charges: 1,
  },
  {
    operation: 'register',
    fault: 'delay',
    label: 'registration: delay past the timeout, then success',
    final: '000.100.112',
    charges: 1,
  },
  {
    operation: 'register',
    fault: 'reset',
    label: 'registration: connection reset mid-answer',
    final: '000.100.112',
    charges: 1,
  },
  {
    operation: 'register',
    fault: 'error500',
    label: 'registration: 500, then success (first inquiry 503)',
    final: '000.100.112',
    charges: 1,
  },
  {
    operation: 'register',
    fault: 'garbage',
    label: 'registration: garbage bytes',
    final: '000.100.112',
    charges: 1,
  },
  {
    operation: 'register',
    fault: 'declined-late',
    label: 'registration: declined, the answer late',
    final: '800.100.151',
    charges: 0,
  },
  {
    operation: 'register',
    fault: 'lost',
    label: 'registration: reset before processing: never received',
    final: '900.100.400',
    charges: 0,
  },
];

/** Every fault of the issue, a decline whose answer was lost, a payment never received, and the control row. */
export const MATRIX: readonly MatrixCase[] = [
  { fault: 'none', label: 'answered in time (control)', final: '000.100.112', charges: 1 },
  { fault: 'delay', label: 'delay past the timeout, then success', final: '000.100.112', charges: 1 },
  { fault: 'reset', label: 'connection reset mid-answer', final: '000.100.112', charges: 1 },
  { fault: 'error500', label: '500, then success (first inquiry 503)', final: '000.100.112', charges: 1 },
  { fault: 'garbage', label: 'garbage bytes', final: '000.100.112', charges: 1 },
  { fault: 'trickle', label: 'slow trickle past the timeout', final: '000.100.112', charges: 1 },
  { fault: 'declined-late', label: 'declined, the answer late', final: '800.100.151', charges: 0 },
  { fault: 'lost', label: 'reset before processing: never received', final: '900.100.400', charges: 0 },
];

export interface Answered {
  readonly status: number;
  // biome-ignore lint/suspicious/noExplicitAny: the answers' fields are read as the tests need
  readonly body: any;
}

/** How a case reaches the gateway under test. */
export interface MatrixDriver {
  readonly name: string;
  /**
   * POST /v1/payments with this Idempotency-Key (the same body every time for one key); with
   * `reference`, POST /v1/payments/{reference.id} of that type (12.34 EUR) instead.
   */
  pay(
    idempotencyKey: string,
    reference?: { readonly paymentType: ReferenceType; readonly id: string },
  ): Promise<Answered>;
  /** A payment of `paymentType` answered in time, to capture or refund, or a registration: its id. */
  original?(paymentType: 'PA' | 'DB' | 'RG'): Promise<string>;
  /** GET /v1/payments/{id}. */
  read(id: string): Promise<Answered>;
  /** POST /v1/registrations of a card with this Idempotency-Key (the same body every time for one key). */
  register?(idempotencyKey: string): Promise<Answered>;
  /** GET /v1/registrations/{id}. */
  readRegistration?(id: string): Promise<Answered>;
  /** Lets time pass for the workers (moves the clock and runs them, or waits); one step. */
  step(): Promise<void>;
  /** The notifications told of the payment, oldest first, as "ACTION code". */
  notified?(id: string): Promise<readonly string[]>;
}

export interface MatrixRow {
  readonly store: string;
  readonly label: string;
  readonly first: string;
  readonly retry: string;
  readonly final: string;
  readonly charges: number;
  readonly steps: number;
  /** What the merchant was told of it, last: "UPDATED <final>" once an inquiry ended it. */
  readonly notified: string;
  readonly ok: boolean;
}

/** The payment's (registration's) end, stepping time until it is no longer pending (at most `maxSteps`). */
async function ended(
  driver: MatrixDriver,
  read: (id: string) => Promise<Answered>,
  id: string,
  maxSteps: number,
): Promise<[Answered, number]> {
  for (let steps = 0; ; steps++) {
    const now = await read(id);
    if (now.body?.result?.code !== '000.200.000' || steps >= maxSteps) return [now, steps];
    await driver.step();
  }
}

/** How a case is sent and read: a payment (or one referencing another), or a registration. */
function operationOf(
  driver: MatrixDriver,
  reference: Parameters<MatrixDriver['pay']>[1],
  registering: boolean,
): { send: (key: string) => Promise<Answered>; read: (id: string) => Promise<Answered> } {
  const { register, readRegistration } = driver;
  if (!registering) return { send: (key) => driver.pay(key, reference), read: (id) => driver.read(id) };
  if (register === undefined || readRegistration === undefined)
    throw new Error(`${driver.name}: the driver makes no registrations`);
  return { send: (key) => register(key), read: (id) => readRegistration(id) };
}

const ORIGINAL_OF = { CP: 'PA', RF: 'DB', registration: 'RG' } as const;

/** One case: paid, retried with its key, ended; what it came to. */
export async function runCase(
  driver: MatrixDriver,
  upstream: ScriptedUpstream,
  test: MatrixCase,
  maxSteps = 40,
): Promise<MatrixRow> {
  const key = `fault-${test.operation ?? 'pay'}-${test.fault}-${driver.name.replace(/[^A-Za-z0-9]+/g, '-')}-${Date.now()}`;
  const operation = test.operation === 'register' ? undefined : test.operation;
  const reference =
    operation === undefined || driver.original === undefined
      ? undefined
      : { paymentType: operation, id: await driver.original(ORIGINAL_OF[operation]) };
  const { send, read } = operationOf(driver, reference, test.operation === 'register');
  upstream.script(test.fault);
  const first = await send(key);
  const id: string = first.body?.id ?? '';
  const retry = await send(key);
  const [final, steps] = await ended(driver, read, id, maxSteps);
  const charges = upstream.charges(id).length;
  const told = (await driver.notified?.(id)) ?? [];
  const row = {
    store: driver.name,
    label: test.label,
    first: first.body?.result?.code ?? String(first.status),
    retry: retry.body?.id === id ? (retry.body?.result?.code ?? '') : `other id ${retry.body?.id}`,
    final: final.body?.result?.code ?? String(final.status),
    charges,
    steps,
    notified: told.at(-1) ?? '-',
  };
  const firstRight = test.fault === 'none' ? row.first === test.final : row.first === '000.200.000';
  const toldRight =
    driver.notified === undefined ||
    row.notified === (test.fault === 'none' ? `CREATED ${test.final}` : `UPDATED ${test.final}`);
  const ok =
    firstRight &&
    toldRight &&
    row.retry === row.first &&
    row.final === test.final &&
    charges === test.charges;
  return { ...row, ok };
}

/** The rows as a Markdown table. */
export function matrixTable(rows: readonly MatrixRow[]): string {
  const lines = [
    '| store | fault | first answer | retry (same key) | final | charges upstream | worker steps | last notification | right |',
    '| --- | --- | --- | --- | --- | --- | --- | --- | --- |',
    ...rows.map(
      (r) =>
        `| ${r.store} | ${r.label} | ${r.first} | ${r.retry} | ${r.final} | ${r.charges} | ${r.steps} | ${r.notified} | ${r.ok ? 'yes' : 'NO'} |`,
    ),
  ];
  return lines.join('\n');
}
