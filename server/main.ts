/**
 * `npm start`: serves the gateway on PORT (default 8080), on HOST (default 127.0.0.1, so a
 * development instance is not reachable from the network until its operator says so).
 */
import { execFileSync } from 'node:child_process';
import { serve } from '@hono/node-server';
import { createApp } from './app';

function gitCommit(): string {
  if (process.env.GATEWAY_COMMIT) return process.env.GATEWAY_COMMIT;
  try {
    return execFileSync('git', ['rev-parse', 'HEAD'], {
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'ignore'],
    }).trim();
  } catch {
    return '0'.repeat(40);
  }
}

const port = Number(process.env.PORT ?? 8080);
const hostname = process.env.HOST ?? '127.0.0.1';
const app = createApp({ commit: gitCommit(), builtAt: new Date() });

const server = serve({ fetch: app.fetch, port, hostname }, (info) => {
  console.log(
    JSON.stringify({ level: 'info', msg: 'gateway listening', url: `http://${hostname}:${info.port}` }),
  );
});

for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.on(signal, () => server.close(() => process.exit(0)));
}
