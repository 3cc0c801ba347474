#!/usr/bin/env node
// `npx open-payment-gateway`: the sandbox from the installed package, as stripe-mock is run: no
// configuration, the gateway's production bundle (dist/server/main.js, built by prepack) on
// 127.0.0.1:8080 in developer mode, which prints the demo merchant's entityId and access token and
// the dashboard's demo users, with the demo shop beside it (the next port). Its data lives in a
// temporary folder deleted when it stops, unless --data-dir (or GATEWAY_DATA_DIR) names one to
// keep. Every GATEWAY_* setting of `npm start` applies.
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';

const USAGE = `usage: open-payment-gateway [--port 8080] [--host 127.0.0.1] [--data-dir <folder>]

Starts the gateway's sandbox (test mode, simulated acquirer, demo merchant and demo shop).`;

const bundle = fileURLToPath(new URL('../dist/server/main.js', import.meta.url));

let args;
try {
  args = parseArgs({
    options: {
      port: { type: 'string' },
      host: { type: 'string' },
      'data-dir': { type: 'string' },
      help: { type: 'boolean', short: 'h' },
    },
  }).values;
} catch (error) {
  console.error(`${error.message}\n\n${USAGE}`);
  process.exit(2);
}
if (args.help) {
  console.log(USAGE);
  process.exit(0);
}
const port = args.port ?? process.env.PORT ?? '8080';
if (!/^\d{1,5}$/.test(port) || Number(port) > 65_535) {
  console.error(`--port must be a TCP port (0 to 65535), not "${port}"\n\n${USAGE}`);
  process.exit(2);
}
if (!existsSync(bundle)) {
  console.error(`${bundle} is missing: this copy was not built (npm pack builds it; in a clone: npm start)`);
  process.exit(1);
}

const kept = args['data-dir'] ?? process.env.GATEWAY_DATA_DIR;
const dataDir = kept ?? mkdtempSync(join(tmpdir(), 'open-payment-gateway-'));
const host = args.host ?? process.env.HOST ?? '127.0.0.1';
console.log(
  `open-payment-gateway sandbox on http://${host}:${port} (API, /docs, /admin/); data in ${dataDir}${kept === undefined ? ' (deleted when it stops)' : ''}`,
);

const child = spawn(process.execPath, ['--expose-gc', bundle], {
  stdio: 'inherit',
  env: {
    ...process.env,
    PORT: port,
    HOST: host,
    GATEWAY_DATA_DIR: dataDir,
    // Not the commit of whatever repository the sandbox was started in (main.ts asks git).
    GATEWAY_COMMIT: process.env.GATEWAY_COMMIT ?? '0'.repeat(40),
  },
});
for (const signal of ['SIGINT', 'SIGTERM']) process.on(signal, () => child.kill(signal));
child.on('exit', (code, signal) => {
  if (kept === undefined) rmSync(dataDir, { recursive: true, force: true });
  process.exit(code ?? (signal === null ? 1 : 128));
});
