/**
 * FTP delivery of the reconciliation files: the gateway's FTP server (`ftp.ts`) over
 * `<dataDir>/reconciliation`, with merchants logging in by their access tokens.
 *
 * Credentials: username = the token's userId, password = the token's secret (the two halves of
 * `base64(userId|secret)`, as the legacy `authentication.userId`/`authentication.password`
 * parameters send them). The secret is checked against the stored hash with the same function as
 * the HTTP API (`verifySecret`), so there is no second secret store, and revoking the token ends
 * FTP access too. Only merchant-wide tokens (no channel restriction) may log in: the merchant's
 * folder holds the files of all of its channels, which a channel-restricted token must not see;
 * and a login sees only its token's environment's files (test, or `…_LIVE.csv`).
 */
import { readFileSync } from 'node:fs';
import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import { tokenEnvironment } from '../../shared/engine/core/model';
import type { TokenStore } from '../../shared/engine/core/ports';
import type { AuthFailures } from '../security/auth-failures';
import type { Logger } from '../security/logger';
import { verifySecret } from '../security/tokens';
import { type FtpLogin, type RunningFtpServer, startFtpServer } from './ftp';
import { RECONCILIATION_FOLDER } from './settlement-run';

/**
 * The merchant of a token's userId and secret, and the files its environment may see: a test
 * token the test channels' files, a live token only the live ones (`…_LIVE.csv`); or undefined.
 */
export function tokenFtpAuthenticator(store: Pick<TokenStore, 'getTokenByUserId'>) {
  return async (username: string, password: string): Promise<FtpLogin | undefined> => {
    if (username === '' || password === '') return undefined;
    const token = await store.getTokenByUserId(username);
    if (token === undefined || token.revokedAt !== null || token.channelIds.length > 0) return undefined;
    if (!verifySecret(password, token.secretHash)) return undefined;
    const live = tokenEnvironment(token) === 'live';
    return { merchantId: token.merchantId, shows: (name) => isLiveFile(name) === live };
  };
}

/** A live channel's reconciliation file (reconciliationFileName). */
export const isLiveFile = (name: string): boolean => name.endsWith('_LIVE.csv');

export interface ReconciliationFtpOptions {
  readonly store: Pick<TokenStore, 'getTokenByUserId'>;
  readonly dataDir: string;
  readonly host: string;
  readonly port: number;
  /** PEM files of the certificate and key: explicit FTPS. */
  readonly certFile?: string;
  readonly keyFile?: string;
  readonly logger?: Logger;
  /** Failed logins, shared with the HTTP API's (the same credentials). */
  readonly authFailures?: AuthFailures;
}

/** Starts the FTP server on `<dataDir>/reconciliation` (created if missing). */
export async function startReconciliationFtp(options: ReconciliationFtpOptions): Promise<RunningFtpServer> {
  const root = join(options.dataDir, RECONCILIATION_FOLDER);
  await mkdir(root, { recursive: true, mode: 0o700 });
  if ((options.certFile === undefined) !== (options.keyFile === undefined)) {
    throw new Error('FTPS needs both GATEWAY_FTP_CERT and GATEWAY_FTP_KEY');
  }
  return startFtpServer({
    host: options.host,
    port: options.port,
    root,
    authenticate: tokenFtpAuthenticator(options.store),
    ...(options.certFile !== undefined && options.keyFile !== undefined
      ? { tls: { cert: readFileSync(options.certFile), key: readFileSync(options.keyFile) } }
      : {}),
    ...(options.logger === undefined ? {} : { logger: options.logger }),
    ...(options.authFailures === undefined ? {} : { authFailures: options.authFailures }),
  });
}
