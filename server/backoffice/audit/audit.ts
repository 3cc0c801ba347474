/**
 * The audit log of the back office: every change, whichever face made it (the admin API and the
 * dashboard through `kit.audit`, the CLI through its procedures' `ctx.audit`), written by
 * `writeAudit` with who (the operator's token, a user, or `cli:<os user>`), what, on what, for
 * which merchant, when and from where (the client's address, or `cli`). Failed attempts with the
 * operator's token are audited too, bounded so that guessing cannot fill the disk
 * (`failedTokenAudit`).
 */
import { userInfo } from 'node:os';
import type { Clock } from '../../../shared/engine/core/ports';
import type { AdminUserStore } from '../../storage/admin-users/store';

/** Who acts, as the audit log names them. */
export interface AuditActor {
  /** The username, `operator-token`, or `cli:<os user>`. */
  readonly actor: string;
  readonly actorId: string | null;
  readonly role: string;
  /** The client's address, `cli`, or null when unknown. */
  readonly address: string | null;
}

export type AuditStore = Pick<AdminUserStore, 'appendAudit'>;

/** Writes one entry: the one audit writer of the admin API, the dashboard and the CLI. */
export async function writeAudit(
  store: AuditStore,
  clock: Clock,
  who: AuditActor,
  action: string,
  target: string | null,
  merchantId: string | null,
): Promise<void> {
  await store.appendAudit({
    at: clock.now(),
    actor: who.actor,
    actorId: who.actorId,
    role: who.role,
    action,
    target,
    merchantId,
    address: who.address,
  });
}

/** The CLI's actor: the operating system's user who ran `gateway` (the CLI acts as operator). */
export function cliActor(env: Readonly<Record<string, string | undefined>> = process.env): AuditActor {
  let name: string | undefined;
  try {
    name = userInfo().username;
  } catch {
    // no passwd entry (some containers): the environment's word for it
    name = env.USER ?? env.LOGNAME ?? env.USERNAME;
  }
  return { actor: `cli:${name ?? 'unknown'}`, actorId: null, role: 'operator', address: 'cli' };
}

/** An audit writer bound to its actor: `(action, target, merchantId)`. */
export type Audit = (action: string, target: string | null, merchantId: string | null) => Promise<void>;

export const FAILED_TOKEN_ACTION = 'operator-token.failed';
const WINDOW_MS = 60_000;
/** Addresses counted apart in one window; the rest share one entry (address `*`). */
const MAX_ADDRESSES = 100;

/**
 * Failed operator-token attempts, audited at most twice per address per minute: the first one at
 * once (`attempts=1`), the rest of the minute as one entry with their count when the minute is
 * over (written by the next failure after it, or a minute after the first). Beyond 100 addresses in a minute
 * the others are counted together under address `*`. Memory and entries per minute are bounded
 * whatever an attacker sends.
 */
export function failedTokenAudit(store: AuditStore, clock: Clock) {
  let windowStart = 0;
  let counts = new Map<string, number>();
  const actor = (address: string): AuditActor => ({
    actor: 'operator-token',
    actorId: null,
    role: 'operator',
    address: address === '' ? null : address,
  });

  async function flush(): Promise<void> {
    const closed = counts;
    counts = new Map();
    for (const [address, count] of closed)
      if (count > 0)
        await writeAudit(store, clock, actor(address), FAILED_TOKEN_ACTION, `attempts=${count}`, null);
  }

  async function failed(address: string | undefined): Promise<void> {
    const now = clock.now().getTime();
    if (now - windowStart >= WINDOW_MS) {
      await flush();
      windowStart = now;
      // the minute's tail is written even if no failure follows (a closed store: nothing to write to)
      setTimeout(() => void flush().catch(() => {}), WINDOW_MS).unref();
    }
    let key = address ?? '';
    if (!counts.has(key) && counts.size >= MAX_ADDRESSES) key = '*';
    const seen = counts.get(key);
    if (seen === undefined) {
      counts.set(key, 0);
      await writeAudit(store, clock, actor(key), FAILED_TOKEN_ACTION, 'attempts=1', null);
    } else counts.set(key, seen + 1);
  }

  return { failed, flush };
}
