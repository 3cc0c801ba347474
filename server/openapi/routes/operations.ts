/**
 * The OpenAPI entries of server/lifecycle/health.ts (the probes) and
 * server/http/routes/dashboard.ts (the administration dashboard's own files, public code).
 */
import type { RouteDoc } from '../route-doc';

const READY = {
  type: 'object',
  required: ['status', 'ready', 'storage', 'pendingMigrations', 'workers', 'draining'],
  properties: {
    status: { enum: ['ready', 'not ready'] },
    ready: { type: 'boolean' },
    storage: { enum: ['reachable', 'unreachable'] },
    pendingMigrations: { type: 'array', items: { type: 'string' } },
    workers: { type: 'object', additionalProperties: { enum: ['running', 'stopped'] } },
    draining: { type: 'boolean', description: 'A shutdown has begun.' },
  },
};

/** A readiness report: every worker polling, or all but the settlement run stopped. */
const readyBody = (ready: boolean) => {
  const worker = ready ? 'running' : 'stopped';
  return {
    status: ready ? 'ready' : 'not ready',
    ready,
    storage: 'reachable',
    pendingMigrations: [],
    workers: {
      webhooks: worker,
      notifier: worker,
      pending: worker,
      scheduler: worker,
      settlement: 'running',
    },
    draining: false,
  };
};

const dashboardFile = (path: string, summary: string, doc: Partial<RouteDoc>): RouteDoc => ({
  method: 'GET',
  path,
  tag: 'Dashboard files',
  summary,
  auth: 'public',
  content: 'html',
  refusals: 'text',
  answers: { 503: 'The dashboard is not built (`npm run build`): Retry-After.' },
  ...doc,
});

export const OPERATION_ROUTES: readonly RouteDoc[] = [
  {
    method: 'GET',
    path: '/healthz',
    tag: 'Operations',
    summary: 'Liveness',
    description:
      'Answers while the process serves at all; also on the metrics address. Tells nothing about merchants or payments.',
    auth: 'public',
    content: 'data',
    data: { type: 'object', required: ['status'], properties: { status: { const: 'alive' } } },
    answers: { 200: '`{"status": "alive"}`.' },
    examples: [{ name: 'healthz', summary: 'Alive', answer: { status: 200, body: { status: 'alive' } } }],
  },
  {
    method: 'GET',
    path: '/readyz',
    tag: 'Operations',
    summary: 'Readiness',
    description:
      'Ready when the storage answers a query, every migration is applied, every worker polls and no shutdown has begun; otherwise 503 naming what is wrong.',
    auth: 'public',
    content: 'data',
    data: READY,
    answers: { 200: 'Ready.', 503: 'Not ready: the report says why.' },
    examples: [
      {
        name: 'readyz',
        summary: 'Ready',
        notSent:
          "the tests' gateway runs its workers on demand (the test clock moves them), so they do not poll and it is never ready.",
        answer: { status: 200, body: readyBody(true) },
      },
      {
        name: 'readyzNotReady',
        summary: 'Not ready: workers that do not poll',
        answer: { status: 503, body: readyBody(false) },
      },
    ],
  },
  dashboardFile('/admin', 'The dashboard (redirect)', {
    content: 'empty',
    answers: { 301: 'To /admin/.' },
    examples: [
      { name: 'dashboardRedirect', summary: 'To /admin/', answer: { status: 301, location: '/admin/' } },
    ],
  }),
  dashboardFile('/admin/', "The dashboard's document", {
    description:
      "The administration dashboard: it signs in and calls the admin API (tag Administration). Carries its own strict Content-Security-Policy; no-cache (it names this build's assets).",
    answers: { 200: 'The document.', 503: 'The dashboard is not built (`npm run build`): Retry-After.' },
    examples: [{ name: 'dashboard', summary: 'The document', answer: { status: 200 } }],
  }),
  dashboardFile('/admin/assets/*', "The dashboard's script and styles", {
    description: 'Named by content hash (immutable); only files of the build manifest.',
    content: 'file',
    answers: { 200: 'The file.', 404: 'Not a file of the build.', 503: 'The dashboard is not built.' },
    examples: [
      {
        name: 'dashboardMissingFile',
        summary: 'A file not in the build',
        path: { file: 'missing.js' },
        answer: { status: 404, body: 'Not found' },
      },
    ],
  }),
];
