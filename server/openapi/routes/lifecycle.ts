/** The OpenAPI entries of server/http/routes/query.ts, schedules.ts and reporting.ts. */
import { DONE, onEntity, PROCESSED, type RouteDoc } from '../route-doc';
import { SAMPLE } from '../samples';

const { entityId, unknownId } = SAMPLE;
const AGGREGATIONS = '/reports/v1/reconciliations/aggregations';

export const LIFECYCLE_ROUTES: readonly RouteDoc[] = [
  {
    method: 'GET',
    path: '/v1/query',
    schema: 'PaymentList',
    tag: 'Query',
    summary: 'Search transactions',
    description:
      'By merchantTransactionId, paymentType, a time frame … within the channel entityId names (the merchant\u2019s id, with dispatching: the token\u2019s channels) and the environment.',
    auth: 'merchant',
    kind: 'query',
    answers: {
      200: '`payments`: the matching transactions (000.000.100).',
      400: 'Invalid parameters; nothing with that merchantTransactionId (700.400.580, as the family answers it); or, with includeLinkedTransactions, a search that would read more than 5,000 transactions (200.300.407, naming date.from/date.to or merchantTransactionId to narrow).',
    },
    examples: [
      {
        name: 'queryByMerchantTransactionId',
        summary: 'The transactions of one order',
        params: { entityId, merchantTransactionId: 'order-1234' },
        answer: DONE,
      },
    ],
  },
  {
    method: 'GET',
    path: '/v1/query/:id',
    schema: 'Payment',
    tag: 'Query',
    summary: 'One transaction',
    auth: 'merchant',
    kind: 'query',
    answers: {
      200: 'The transaction, as GET /v1/payments/{id} answers it.',
      400: 'None with this id on the channel entityId names (700.400.580), or invalid.',
    },
    examples: [
      onEntity({ name: 'queryById', summary: 'A debit, by its id', idOf: 'debit' }, entityId),
      {
        name: 'queryUnknown',
        summary: 'An id no transaction has',
        path: { id: unknownId },
        params: { entityId },
        answer: { status: 400, code: '700.400.580' },
      },
    ],
  },
  {
    method: 'POST',
    path: '/scheduling/v1/schedules',
    tag: 'Scheduling',
    summary: 'Schedule payments',
    description:
      'A job (cron fields `job.*` or `job.expression`) charging a registration as a merchant-initiated payment; no job fields take the spec\u2019s defaults.',
    auth: 'merchant',
    schema: 'Schedule',
    kind: 'schedule',
    answers: { 200: 'Scheduled: the job and its next run.', 400: 'Invalid parameters or registration.' },
    examples: [
      {
        name: 'schedule',
        summary: 'Every day at 09:30 UTC',
        params: {
          entityId,
          registrationId: { idOf: 'registration' },
          amount: '9.99',
          currency: 'EUR',
          paymentType: 'DB',
          'job.second': '0',
          'job.minute': '30',
          'job.hour': '9',
        },
        answer: PROCESSED,
      },
    ],
  },
  {
    method: 'GET',
    path: '/scheduling/v1/schedules/:id',
    tag: 'Scheduling',
    summary: 'A schedule and its runs',
    auth: 'merchant',
    schema: 'Schedule',
    kind: 'entity',
    answers: { 200: 'The schedule.', 404: 'None with this id.' },
    examples: [
      onEntity(
        { name: 'scheduleStatus', summary: 'Read a schedule', idOf: 'schedule', answer: DONE },
        entityId,
      ),
    ],
  },
  {
    method: 'DELETE',
    path: '/scheduling/v1/schedules/:id',
    tag: 'Scheduling',
    summary: 'Deschedule',
    auth: 'merchant',
    schema: 'Schedule',
    kind: 'entity',
    answers: { 200: 'Descheduled: no further runs.', 404: 'None with this id.' },
    examples: [
      onEntity({ name: 'deschedule', summary: 'Stop a schedule', idOf: 'schedule', answer: DONE }, entityId),
    ],
  },
  {
    method: 'GET',
    path: AGGREGATIONS,
    schema: 'AggregationList',
    tag: 'Reporting',
    summary: 'Reconciliation aggregations',
    description:
      'The settlements of a merchant account whose settlement day is in the range (both ends included), by day, then currency.',
    auth: 'merchant',
    kind: 'reporting',
    answers: {
      200: '`aggregations` (000.000.100); none is an empty list.',
      400: 'Invalid parameters or range.',
    },
    examples: [
      {
        name: 'aggregations',
        summary: 'A week of settlements',
        params: { entityId, 'date.from': '2026-11-01', 'date.to': '2026-11-07' },
        answer: DONE,
      },
    ],
  },
  {
    method: 'GET',
    path: `${AGGREGATIONS}/:id`,
    schema: 'AggregationDetail',
    tag: 'Reporting',
    summary: 'One aggregation and its records',
    description:
      'The records ordered by sortValue and sortOrder (ASC by default); date.from and date.to are not needed here (sent, they are checked). With `Accept: text/csv` the records come as the reconciliation file.',
    auth: 'merchant',
    kind: 'reporting',
    optional: ['date.from', 'date.to'],
    content: 'csv',
    answers: { 200: 'The aggregation and its `records`.', 404: 'None with this id.' },
    examples: [
      {
        name: 'unknownAggregation',
        summary: 'An id no aggregation has',
        path: { id: unknownId },
        params: { entityId },
        answer: { status: 404, code: '200.300.406' },
      },
    ],
  },
  {
    method: 'GET',
    path: `${AGGREGATIONS}/:id/file`,
    tag: 'Reporting',
    summary: 'One aggregation as the reconciliation file',
    description:
      'The records as the reconciliation CSV (text/csv), byte for byte what the FTP file holds for that currency.',
    auth: 'merchant',
    kind: 'reporting',
    optional: ['date.from', 'date.to'],
    content: 'csv',
    answers: { 200: 'The CSV (see /docs/reconciliation).', 404: 'None with this id.' },
  },
];
