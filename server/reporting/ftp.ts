/**
 * The embedded FTP server that delivers reconciliation files (spec: "Reconciliation data is
 * delivered as a CSV file by FTP").
 *
 * `root` holds one folder per merchant id; a merchant logs in with its own credentials and sees
 * `root/<merchantId>` as `/`, read-only. Protocol handling is `ftp-srv`; everything a merchant may
 * reach goes through {@link MerchantFileSystem} here, which does not rely on ftp-srv's own file
 * system or on file permissions:
 *
 * - Paths are resolved lexically against the virtual `/` first (`..` stops at `/`, absolute paths
 *   are the merchant's own), then on disk with `realpath`: anything whose real path is outside the
 *   merchant folder (a symlink out, `..` through a symlink) does not exist for the merchant. Errors
 *   never carry server paths.
 * - Files are opened with O_NOFOLLOW after that check. Listings show files and folders only.
 * - Writing, appending, deleting, renaming, mkdir and chmod throw; the commands that do them (and
 *   SITE, and active mode PORT/EPRT: passive only, no FTP bounce) are also refused per session.
 * - With `tls`, the control connection must be upgraded (explicit FTPS, AUTH TLS) before login, and
 *   passive data connections are TLS too. Without it, logins are accepted from loopback only
 *   ({@link plainLoginAllowed}): credentials never cross a network in clear text.
 * - Failed logins are counted per client address, never per username (`authFailures`, shared with the
 *   HTTP API): past the limit a login is refused before the credentials are checked.
 *
 * Passive data ports are taken from `pasvRange`, or else chosen by the OS, on `host`.
 */
import { constants } from 'node:fs';
import { mkdir, open, readdir, realpath, stat } from 'node:fs/promises';
import type { AddressInfo } from 'node:net';
import { join, posix, resolve, sep } from 'node:path';
import type { Readable } from 'node:stream';
import { FtpSrv } from 'ftp-srv';
import { type AuthFailures, authKeys } from '../security/auth-failures';
import type { Logger } from '../security/logger';

export interface FtpServerOptions {
  /** Address to bind, also of the passive data ports: `127.0.0.1` for loopback only. */
  readonly host: string;
  /** Control port; 0 for one chosen by the OS (see the returned `port`). */
  readonly port: number;
  /** Folder holding one sub-folder per merchant id. */
  readonly root: string;
  /**
   * The merchant id of these credentials (or the merchant id and which of its files the login
   * may see), or undefined to refuse the login.
   */
  readonly authenticate: (username: string, password: string) => Promise<string | FtpLogin | undefined>;
  /** PEM certificate and key: explicit FTPS (AUTH TLS), required before login. */
  readonly tls?: { readonly cert: string | Buffer; readonly key: string | Buffer };
  /** Passive data ports (inclusive); by default the OS picks a free port per transfer. */
  readonly pasvRange?: { readonly min: number; readonly max: number };
  /** Address told to clients in PASV replies when `host` is not what they can reach (e.g. 0.0.0.0). */
  readonly pasvAddress?: string;
  /** Idle timeout of a control connection in ms; default 5 minutes, 0 for none. */
  readonly idleTimeoutMs?: number;
  readonly logger?: Pick<Logger, 'info' | 'warn' | 'error'>;
  /** Failed logins per client address and username; none counted without it. */
  readonly authFailures?: AuthFailures;
}

/** A login: the merchant's folder, and the names in it this login may see (all by default). */
export interface FtpLogin {
  readonly merchantId: string;
  readonly shows?: (name: string) => boolean;
}

/** Whether an address is this machine's own: 127.0.0.0/8, ::1, or IPv4-mapped 127.x. */
export function isLoopback(ip: string | undefined): boolean {
  if (ip === undefined) return false;
  const v4 = ip.startsWith('::ffff:') ? ip.slice('::ffff:'.length) : ip;
  return /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(v4) || ip === '::1';
}

/** A login without TLS is accepted only from loopback: elsewhere the password would cross a network in clear. */
export const plainLoginAllowed = (ip: string | undefined, secure: boolean): boolean =>
  secure || isLoopback(ip);

export interface RunningFtpServer {
  readonly port: number;
  close(): Promise<void>;
}

/** The commands that change anything, refused in every session (the file system refuses them too). */
export const REFUSED_COMMANDS = [
  'STOR',
  'APPE',
  'STOU',
  'ALLO',
  'DELE',
  'RMD',
  'XRMD',
  'MKD',
  'XMKD',
  'RNFR',
  'RNTO',
  'SITE',
  'PORT',
  'EPRT',
] as const;

/** Merchant ids name folders: letters, digits, `_` and `-` only. */
const MERCHANT_ID = /^[A-Za-z0-9_-]{1,64}$/;

/** An error ftp-srv answers with 550 and its message. */
class FtpFileError extends Error {
  readonly code = 550;
}

const notFound = (): FtpFileError => new FtpFileError('No such file or directory');
const readOnly = (): FtpFileError => new FtpFileError('Permission denied: read-only');

/** What LIST, STAT, SIZE and MDTM read of a file: no owner, no inode, no write bits. */
export interface ListedFile {
  readonly name: string;
  readonly size: number;
  readonly mtime: Date;
  readonly mode: number;
  isDirectory(): boolean;
  isFile(): boolean;
}

function inside(real: string, root: string): boolean {
  return real === root || real.startsWith(root.endsWith(sep) ? root : root + sep);
}

/**
 * One session's view of a merchant folder, in the shape ftp-srv calls (`get`, `list`, `chdir`,
 * `read`, …). Exported for tests; `startFtpServer` makes one per login.
 */
export class MerchantFileSystem {
  #cwd = '/';

  /**
   * `root` must be a real path (no symlinks in it): the merchant folder. `shows` hides names
   * from this session (listed or read): a test login never sees a live file, nor the reverse.
   */
  constructor(
    readonly root: string,
    readonly shows: (name: string) => boolean = () => true,
  ) {}

  currentDirectory(): string {
    return this.#cwd;
  }

  /** The virtual path of `path` seen from the working directory: `..` never goes above `/`. */
  clientPath(path = '.'): string {
    if (path.includes('\0')) throw notFound();
    return posix.resolve('/', this.#cwd, path.replaceAll('\\', '/'));
  }

  /** The real path on disk of `path`, which must exist and be inside the merchant folder. */
  async realPath(path = '.'): Promise<{ client: string; real: string }> {
    const client = this.clientPath(path);
    if (client !== '/' && !this.shows(posix.basename(client))) throw notFound();
    let real: string;
    try {
      real = await realpath(join(this.root, ...client.split('/')));
    } catch {
      throw notFound();
    }
    if (!inside(real, this.root)) throw notFound();
    return { client, real };
  }

  async #describe(real: string, name: string): Promise<ListedFile | undefined> {
    let stats: Awaited<ReturnType<typeof stat>>;
    try {
      stats = await stat(real);
    } catch {
      return undefined;
    }
    if (!stats.isFile() && !stats.isDirectory()) return undefined;
    const directory = stats.isDirectory();
    return {
      name,
      size: directory ? 0 : stats.size,
      mtime: stats.mtime,
      mode: (directory ? 0o040000 : 0o100000) | (stats.mode & 0o555),
      isDirectory: () => directory,
      isFile: () => !directory,
    };
  }

  async get(fileName: string): Promise<ListedFile> {
    const { real } = await this.realPath(fileName);
    const file = await this.#describe(real, fileName);
    if (!file) throw notFound();
    return file;
  }

  async list(path = '.'): Promise<ListedFile[]> {
    const { real } = await this.realPath(path);
    let names: string[];
    try {
      names = (await readdir(real)).filter((name) => this.shows(name)).sort();
    } catch {
      throw notFound();
    }
    const files = await Promise.all(
      names.map(async (name) => {
        try {
          const target = await realpath(join(real, name));
          return inside(target, this.root) ? await this.#describe(target, name) : undefined;
        } catch {
          return undefined; // dangling link, vanished file
        }
      }),
    );
    return files.filter((f): f is ListedFile => f !== undefined);
  }

  async chdir(path = '.'): Promise<string> {
    const { client, real } = await this.realPath(path);
    const file = await this.#describe(real, client);
    if (!file?.isDirectory()) throw new FtpFileError('Not a directory');
    this.#cwd = client;
    return client;
  }

  async read(
    fileName: string,
    { start }: { start?: number } = {},
  ): Promise<{ stream: Readable; clientPath: string }> {
    const { client, real } = await this.realPath(fileName);
    let handle: Awaited<ReturnType<typeof open>>;
    try {
      handle = await open(real, constants.O_RDONLY | constants.O_NOFOLLOW);
    } catch {
      throw notFound();
    }
    const stats = await handle.stat().catch(() => undefined);
    if (!stats?.isFile()) {
      await handle.close();
      throw new FtpFileError('Not a file');
    }
    const offset = typeof start === 'number' && Number.isSafeInteger(start) && start > 0 ? start : undefined;
    return { stream: handle.createReadStream({ start: offset }), clientPath: client };
  }

  write(): never {
    throw readOnly();
  }
  delete(): never {
    throw readOnly();
  }
  mkdir(): never {
    throw readOnly();
  }
  rename(): never {
    throw readOnly();
  }
  chmod(): never {
    throw readOnly();
  }
  getUniqueName(): never {
    throw readOnly();
  }
}

type LogMethod = (...args: unknown[]) => void;
interface BunyanLike {
  trace: LogMethod;
  debug: LogMethod;
  info: LogMethod;
  warn: LogMethod;
  error: LogMethod;
  fatal: LogMethod;
  child(): BunyanLike;
}

/** ftp-srv logs bunyan-style (`log.error(err, 'msg')`): pass info, warnings and errors on; drop trace/debug. */
function bunyanLike(logger: FtpServerOptions['logger']): BunyanLike {
  const forward =
    (level: 'info' | 'warn' | 'error'): LogMethod =>
    (...args) => {
      if (!logger) return;
      const msg = args.find((a): a is string => typeof a === 'string') ?? 'ftp';
      const fields: Record<string, unknown> = {};
      for (const a of args) {
        if (a instanceof Error) fields.error = a.message;
        else if (a && typeof a === 'object') Object.assign(fields, a);
      }
      logger[level](`ftp: ${msg}`, fields);
    };
  const noop: LogMethod = () => {};
  const log: BunyanLike = {
    trace: noop,
    debug: noop,
    info: forward('info'),
    warn: forward('warn'),
    error: forward('error'),
    fatal: forward('error'),
    child: () => log,
  };
  return log;
}

interface FtpConnectionLike {
  readonly secure: boolean;
  readonly ip?: string;
}

/** ftp-srv's internals this module touches (not in its type declarations). */
interface FtpSrvInternals {
  server: { address(): AddressInfo | string | null };
  getNextPasvPort: () => Promise<number>;
}

const SIGNALS = ['SIGTERM', 'SIGINT', 'SIGQUIT'] as const;

/**
 * Starts the server; resolves once it listens. `close()` ends every session and stops listening.
 * Throws if `root` does not exist.
 */
export async function startFtpServer(options: FtpServerOptions): Promise<RunningFtpServer> {
  const root = await realpath(resolve(options.root));
  if (!(await stat(root)).isDirectory()) throw new Error(`FTP root is not a folder: ${options.root}`);
  if (!Number.isInteger(options.port) || options.port < 0 || options.port > 65535) {
    throw new RangeError(`Invalid FTP port: ${options.port}`);
  }
  const hostInUrl = options.host.includes(':') ? `[${options.host}]` : options.host;
  const log = bunyanLike(options.logger);

  // ftp-srv installs SIGTERM/SIGINT/SIGQUIT handlers that exit the process: the gateway owns those.
  const before = new Map(SIGNALS.map((s) => [s, new Set(process.listeners(s))]));
  const ftp = new FtpSrv({
    url: `ftp://${hostInUrl}:${options.port}`,
    pasv_url: options.pasvAddress ?? options.host,
    pasv_min: options.pasvRange?.min ?? 1024,
    pasv_max: options.pasvRange?.max ?? 65535,
    tls: options.tls ? { cert: options.tls.cert, key: options.tls.key } : false,
    anonymous: false,
    greeting: 'Reconciliation files (read-only)',
    timeout: options.idleTimeoutMs ?? 5 * 60_000,
    log,
  });
  for (const signal of SIGNALS) {
    for (const listener of process.listeners(signal)) {
      if (!before.get(signal)?.has(listener)) process.removeListener(signal, listener);
    }
  }
  const internals = ftp as unknown as FtpSrvInternals;
  if (!options.pasvRange) internals.getNextPasvPort = () => Promise.resolve(0);

  ftp.on('login', ({ connection, username, password }, accept, refuse) => {
    const session = connection as unknown as FtpConnectionLike;
    void (async () => {
      if (options.tls && !session.secure) return refuse(new Error('TLS required: use AUTH TLS'));
      if (!plainLoginAllowed(session.ip, session.secure)) {
        log.warn({ ip: session.ip }, 'plain login refused');
        return refuse(
          new Error('TLS required: this server accepts logins without TLS from its own machine only'),
        );
      }
      const keys = authKeys(session.ip);
      const blocked = options.authFailures?.check(keys);
      if (blocked !== undefined && !blocked.ok) {
        log.warn({ ip: session.ip }, 'login throttled');
        return refuse(new Error(`Too many failed logins; retry in ${blocked.retryAfterSeconds} s`));
      }
      let merchantId: string | undefined;
      let shows: ((name: string) => boolean) | undefined;
      try {
        const login = await options.authenticate(username, password);
        if (typeof login === 'string') merchantId = login;
        else if (login !== undefined) ({ merchantId, shows } = login);
      } catch (error) {
        log.error(error, 'authentication failed with an error');
      }
      if (merchantId === undefined || !MERCHANT_ID.test(merchantId)) {
        options.authFailures?.fail(keys);
        log.warn({ ip: session.ip, username }, 'login refused');
        return refuse(new Error('Login incorrect'));
      }
      const folder = join(root, merchantId);
      await mkdir(folder, { recursive: true, mode: 0o700 });
      const real = await realpath(folder);
      if (!inside(real, root) || real === root) return refuse(new Error('Login incorrect'));
      const fs = new MerchantFileSystem(real, shows);
      accept({ fs: fs as never, blacklist: [...REFUSED_COMMANDS] });
    })().catch((error: unknown) => {
      log.error(error, 'login failed');
      refuse(new Error('Login failed'));
    });
  });
  ftp.on('client-error', ({ context, error }) => log.warn({ context, error: error.message }, 'client error'));
  ftp.on('server-error' as never, ({ error }: { error: Error }) => log.error(error, 'server error'));

  await ftp.listen();
  const address = internals.server.address();
  const port = typeof address === 'object' && address ? address.port : options.port;

  let closing: Promise<void> | undefined;
  return {
    port,
    close: () => {
      closing ??= Promise.resolve(ftp.close()).then(() => undefined);
      return closing;
    },
  };
}
