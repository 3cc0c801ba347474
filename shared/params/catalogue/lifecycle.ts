/**
 * Spec sections about a payment's life beyond one request: tokenization and registration,
 * recurring migration, card on file (standing instruction), asynchronous payments, risk,
 * scheduling and chargebacks; plus the family's legacy names that existing clients still send.
 */
import { METHOD_CODES } from '../../brands/catalogue';
import { dict, group, leaf, list } from '../nodes';
import { check, notBefore, str } from '../rules';
import {
  AN,
  BOOL,
  DEC2,
  decimal,
  ID32,
  INT,
  MAP_KEY,
  MAP_VALUE,
  N,
  oneOf,
  pattern,
  TS,
  URL,
  YMD,
} from './dsl';

/** Stored registrations offered for one-click payment; the spec sets no limit, this bounds memory. */
export const MAX_REGISTRATIONS = 100;

export const tokenization = group({
  createRegistration: leaf(
    { t: 'bool', legacy01: true },
    { note: 'When true, payment details are stored and the response carries registrationId.' },
  ),
  overrideHolder: BOOL({
    note: 'Lets card.holder or bankAccount.holder replace an empty stored holder, once.',
  }),
  registrations: list(group({ id: ID32({ req: 'R' }) }), MAX_REGISTRATIONS),
});

export const recurringMigration = group({
  recurringMigration: group({
    paymentType: oneOf(['DB', 'CD', 'PA'], { req: 'R' }),
    amount: decimal(8, 2),
    requestTimestamp: TS({ req: 'C', note: 'Time of the INITIAL request.' }),
    connectorTxId1: AN(1, 128, { req: 'C' }),
    connectorTxId2: AN(1, 128, { req: 'C' }),
    connectorTxId3: AN(1, 128, { req: 'C' }),
  }),
});

export const standingInstruction = group({
  standingInstruction: group({
    type: oneOf(['UNSCHEDULED', 'INSTALLMENT', 'RECURRING'], { req: 'C' }),
    recurringType: oneOf(['STANDING_ORDER', 'SUBSCRIPTION'], { req: 'C' }),
    mode: oneOf(['INITIAL', 'REPEATED'], { req: 'C' }),
    source: oneOf(['CIT', 'MIT'], { req: 'C' }),
    initialTransactionId: AN(1, 255, { req: 'C', note: 'Scheme reference of the first transaction.' }),
    industryPractice: oneOf(
      ['INCREMENTAL_AUTH', 'RESUBMISSION', 'REAUTHORIZATION', 'DELAYED_CHARGES', 'NO_SHOW'],
      {
        req: 'C',
      },
    ),
    expiry: YMD({ req: 'C' }),
    frequency: N(1, 4, { req: 'C', note: 'Minimum days between authorizations.' }),
    numberOfInstallments: N(1, 3, {
      req: 'C',
      tags: ['3ds2'],
      note: 'Mandatory when type is INSTALLMENT and 3-D Secure applies.',
    }),
    agreementId: AN(1, 35),
  }),
  /** Legacy form of standingInstruction.mode. */
  recurringType: oneOf(['INITIAL', 'REPEATED'], { note: 'Deprecated: use standingInstruction.mode.' }),
});

export const asynchronous = group({
  shopperResultUrl: URL(6, 2048, { req: 'C', note: 'Receives the result; the shopper is redirected there.' }),
  notificationUrl: URL(6, 2048, { note: 'Deprecated; use webhooks instead.' }),
});

export const risk = group({
  risk: group({
    channelId: AN(1, 255),
    serviceId: AN(1, 255),
    amount: DEC2({ note: 'Amount for the risk request; also the amount authenticated in 3-D Secure.' }),
    orderTimestamp: TS(),
    brand: AN(1, 255),
    parameters: dict(MAP_KEY, MAP_VALUE, 'Custom risk data.'),
    merchantWebsite: AN(1, 60),
    accountToken: AN(1, 64),
  }),
});

const UNITS = ['YEAR', 'MONTH', 'WEEK', 'DAY', 'HOUR', 'MINUTE', 'SECOND'] as const;
const cron = (field: 'second' | 'hour' | 'dayOfMonth' | 'month' | 'dayOfWeek' | 'year', note: string) =>
  leaf({ t: 'cron', field }, { note });

export const scheduling = group(
  {
    job: group({
      name: AN(1, 64, { note: 'Identification only.' }),
      year: leaf({ t: 'cron', field: 'year' }, { note: 'Default *.' }),
      month: cron('month', 'Default 1.'),
      dayOfMonth: cron('dayOfMonth', 'Default 1.'),
      dayOfWeek: cron('dayOfWeek', 'Default 1.'),
      hour: cron('hour', 'Default 0.'),
      minute: INT(0, 59, { note: 'Default 0.' }),
      second: cron('second', 'Default 0.'),
      startDate: TS(),
      endDate: TS(),
      noticeUnit: oneOf(UNITS),
      durationUnit: oneOf(UNITS),
      noticeNumber: N(1, 16),
      durationNumber: N(1, 16),
      noticeCallable: oneOf(['ANYTIME', 'DURATION_END']),
      expression: leaf(
        { t: 'cronExpression', max: 256 },
        { note: 'Overwrites second, minute, hour, dayOfMonth, month, dayOfWeek and year.' },
      ),
    }),
    registrationId: ID32({ req: 'R', note: 'The registration the schedule charges.' }),
  },
  // An end before the start would never run.
  [notBefore('job.startDate', 'job.endDate')],
);

export const chargeback = group({
  chargebackResultCode: pattern(/^000\.100\.2[0-9]{2}$/, '000.100.2 followed by two digits', {
    note: 'Chargeback reason code as received from the acquirer.',
  }),
});

export const QUERY_PAYMENT_TYPES = [
  'CB',
  'CD',
  'CR',
  'DB',
  'CP',
  'IV',
  'PA',
  'RB',
  'RC',
  'RF',
  'RL',
  'RV',
  'AD',
  'IN',
  'FI',
  'CL',
  'CF',
  'DR',
  'RG',
  'RR',
  'TE',
  'CT',
  'DS',
  'RS',
  'SD',
  'AC',
  'MD',
  'EA',
  'RI',
  '3D',
  'SA',
  'EN',
  'ID',
  'IC',
  'DP',
  'CG',
  'TG',
  'SF',
  'IS',
  'VD',
  'DV',
  'AF',
  'GK',
  'RD',
  'TM',
  'FT',
  'KT',
  'AR',
  'AL',
  'PL',
  'FN',
  'FZ',
  'RE',
  'RX',
  'FO',
  'CS',
  'EX',
  'SE',
  'AU',
  'TK',
  'TF',
  'ER',
] as const;
/** The Query API's method codes: the payment-method catalogue's (shared/brands/catalogue.ts). */
export const QUERY_PAYMENT_METHODS = METHOD_CODES;

export const query = group(
  {
    merchantTransactionId: AN(1, 255, { note: 'Cannot be combined with a date.from/date.to time frame.' }),
    limit: INT(100, 500, { note: 'Default 100.' }),
    date: group({
      from: TS({ note: 'Use together with date.to.' }),
      to: TS({ note: 'Use together with date.from.' }),
    }),
    paymentTypes: leaf({ t: 'enumList', values: QUERY_PAYMENT_TYPES }),
    paymentMethods: leaf(
      { t: 'enumList', values: QUERY_PAYMENT_METHODS },
      {
        note: "A payment's method follows from its brand, as docs/payment-methods.md lists them.",
      },
    ),
    includeLinkedTransactions: BOOL({ note: 'Also return transactions linked to the queried one.' }),
    shortId: AN(1, 14, { note: 'Needs merchantTransactionId or date.from/date.to beside it.' }),
  },
  [
    check({
      paths: ['merchantTransactionId', 'date.from', 'date.to'],
      says: 'merchantTransactionId cannot be combined with a date.from/date.to time frame.',
      apply(root, report) {
        if (str(root, 'merchantTransactionId') === undefined) return;
        const dates = ['date.from', 'date.to'].filter((p) => str(root, p) !== undefined);
        if (dates.length === 0) return;
        // Each side is named, so the client sees which parameters clash.
        report('merchantTransactionId', `cannot be combined with ${dates.join(' and ')}`);
        for (const p of dates) report(p, 'cannot be combined with merchantTransactionId');
      },
    }),
    check({
      paths: ['shortId', 'merchantTransactionId', 'date.from', 'date.to'],
      says: 'shortId needs merchantTransactionId or a date.from/date.to time frame beside it.',
      apply(root, report) {
        if (
          str(root, 'shortId') !== undefined &&
          str(root, 'merchantTransactionId') === undefined &&
          str(root, 'date.from') === undefined &&
          str(root, 'date.to') === undefined
        ) {
          report('shortId', 'requires merchantTransactionId or a date.from/date.to time frame');
        }
      },
    }),
  ],
);

export const reporting = group({
  date: group({ from: leaf({ t: 'DATE' }, { req: 'R' }), to: leaf({ t: 'DATE' }, { req: 'R' }) }),
  sortValue: oneOf(['SettlementTxDate']),
  sortOrder: oneOf(['ASC', 'DESC', 'asc', 'desc']),
});
