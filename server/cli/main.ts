/**
 * `gateway`: the operator CLI (see `gateway help`). Works on the server's store: SQLite in
 * GATEWAY_DATA_DIR (default ./data), or PostgreSQL when DATABASE_URL is set. Run through
 * `bin/gateway` or `npm run gateway -- <command>`.
 */

import { existsSync } from 'node:fs';
import { type EgressPolicy, egressOptionsFromEnv, egressPolicy } from '../security/egress';
import { openVault, type Vault } from '../security/vault';
import { openStore } from '../storage';
import { run } from './run';

const dataDir = process.env.GATEWAY_DATA_DIR ?? './data';
const databaseUrl = process.env.DATABASE_URL;
// Opened when first needed (a webhook's key, an account number to seal or open), so commands
// that touch neither work without the data key.
let vault: Vault | undefined;
const theVault = (): Vault => {
  vault ??= openVault({ dataDir, env: process.env });
  return vault;
};

// A closed pipe (`gateway merchant list | head -1`) is not an error; the command still finishes.
for (const stream of [process.stdout, process.stderr])
  stream.on('error', (error: NodeJS.ErrnoException) => {
    if (error.code !== 'EPIPE') throw error;
  });

// Where the gateway may call (NODE_ENV=production, GATEWAY_CALLBACK_ALLOW): connector URLs and
// webhooks it would refuse are refused here too, and the webhook test notification goes through it.
let egress: EgressPolicy | undefined;
try {
  egress = egressPolicy(egressOptionsFromEnv(process.env));
} catch (error) {
  process.stderr.write(`gateway: ${error instanceof Error ? error.message : String(error)}\n`);
  process.exit(2);
}

process.exitCode = await run(process.argv.slice(2), {
  openStore: () =>
    openStore({
      dataDir,
      ...(databaseUrl ? { databaseUrl } : {}),
      vault: {
        encrypt: (plain) => theVault().encrypt(plain),
        decrypt: (sealed) => theVault().decrypt(sealed),
      },
      // A command's few writes: SQLite's own checkpoints, no thread to start.
      checkpoints: 'inline',
      // Beside the serving gateway, which holds the folder (storage/core/folder-lock.ts).
      lockFolder: false,
    }),
  openVault: theVault,
  dataDir,
  // SQLite's folder: never created silently (run.ts); PostgreSQL keeps the store elsewhere
  ...(databaseUrl ? {} : { dataFolder: { path: dataDir, exists: () => existsSync(dataDir) } }),
  egress,
  fetch: egress.fetch,
  // a password piped in (`… | gateway user create …`); none from a terminal
  readStdin: async () => {
    if (process.stdin.isTTY) return undefined;
    const chunks: Buffer[] = [];
    for await (const chunk of process.stdin) chunks.push(chunk as Buffer);
    return Buffer.concat(chunks).toString('utf8');
  },
  output: {
    out: (line) => process.stdout.write(`${line}\n`),
    err: (line) => process.stderr.write(`${line}\n`),
  },
});
