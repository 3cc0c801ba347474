/**
 * A throwaway self-signed certificate for the tests that serve HTTPS (production mode, the live
 * address, the e2e harness's live environment), made with Debian's openssl (.ci/run installs it).
 */
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

export interface Certificate {
  readonly cert: Buffer;
  readonly key: Buffer;
  /** Where they were written (PEM), for a look with `openssl x509 -in … -noout -text`. */
  readonly certFile: string;
  readonly keyFile: string;
}

/** An RSA-2048 certificate for CN=127.0.0.1 (SAN IP:127.0.0.1, DNS:localhost), valid one day. */
export function selfSignedCertificate(dir: string): Certificate {
  const certFile = join(dir, 'cert.pem');
  const keyFile = join(dir, 'key.pem');
  execFileSync(
    'openssl',
    [
      'req',
      '-x509',
      '-newkey',
      'rsa:2048',
      '-nodes',
      '-days',
      '1',
      '-subj',
      '/CN=127.0.0.1',
      '-addext',
      'subjectAltName=IP:127.0.0.1,DNS:localhost',
      '-keyout',
      keyFile,
      '-out',
      certFile,
    ],
    { stdio: ['ignore', 'ignore', 'pipe'] },
  );
  return { cert: readFileSync(certFile), key: readFileSync(keyFile), certFile, keyFile };
}
