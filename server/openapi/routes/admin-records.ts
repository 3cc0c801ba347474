/**
 * The OpenAPI entries of the dashboard's records (server/http/routes/admin/records.ts): a
 * merchant's saved cards, their deletion and their move to another route, the payments export, the search box and the
 * recent API requests.
 */
import { paymentListFilters } from '../../../shared/contract/admin-queries';
import { queryParameters } from '../../../shared/contract/json-schema';
import { MAX_REGISTRATION_PAGE } from '../../backoffice/registrations/registrations';
import { SHOWN_API_REQUESTS } from '../../backoffice/requests/requests';
import { RETAINED_API_REQUESTS } from '../../storage/api-requests/store';
import type { RouteDoc } from '../route-doc';
import { SAMPLE } from '../samples';
import { ADMIN_REFUSALS } from './admin-accounts';

const { merchantId, unknownId } = SAMPLE;
const M = '/admin/v1/merchants/:merchantId';
const OK = { status: 200, code: '000.000.100' } as const;

const entry = (doc: Omit<RouteDoc, 'tag' | 'auth'>): RouteDoc => ({
  tag: 'Administration',
  auth: 'admin',
  ...doc,
  answers: { ...doc.answers, ...ADMIN_REFUSALS },
});

export const ADMIN_RECORD_ROUTES: readonly RouteDoc[] = [
  entry({
    method: 'GET',
    path: `${M}/registrations`,
    schema: 'AdminRegistrationList',
    summary: "A merchant's saved cards",
    description:
      "Registrations (stored payment details) of this address's environment, newest first in keyset pages, deleted ones too: the card as the API answers it (bin, last four digits, expiry, holder), never its number.",
    query: {
      limit: { type: 'integer', minimum: 1, maximum: MAX_REGISTRATION_PAGE, default: 25 },
      after: { type: 'string', description: 'The `next` of the previous page.' },
    },
    answers: {
      200: '`{registrations: [{id, entityId, paymentBrand, bin, last4, expiryMonth, expiryYear, holder, status, createdAt, deletedAt}], next}`.',
      400: 'A bad limit or cursor, each named.',
      404: 'No such merchant.',
    },
    examples: [
      { name: 'adminRegistrations', summary: 'The newest saved cards', path: { merchantId }, answer: OK },
    ],
  }),
  entry({
    method: 'DELETE',
    path: `${M}/registrations/:id`,
    schema: 'AdminRegistration',
    summary: 'Delete a saved card',
    description:
      'As DELETE /v1/registrations/{id}: nothing can pay with it any more, and its REGISTRATION DELETED notification is sent. Audited `registration.delete`.',
    answers: {
      200: 'The registration, deleted.',
      400: 'It was deleted already.',
      404: "No such merchant, or no such registration of this address's environment.",
    },
    examples: [
      {
        name: 'adminRegistrationDeleteUnknown',
        summary: 'A registration that is none',
        path: { merchantId, id: unknownId },
        answer: { status: 404, code: '200.300.406' },
      },
    ],
  }),
  entry({
    method: 'POST',
    path: `${M}/registrations/moves`,
    schema: 'AdminRegistrationMoves',
    json: 'AdminRegistrationMoveInput',
    summary: 'Move saved cards to another connector',
    description:
      'Registrations re-tagged to another of their channel’s routes (by its place, 0 first): a card registered by a cardholder-initiated payment whose network transaction id was kept; its merchant-initiated repeats then go there as a card on file with that id (the connectors guide says which combinations work). Named registrations move all or none; `all` moves every one that can and lists the others with their reason. Bank accounts, wallet tokens and cards without a network transaction id never move. As `gateway registration move`. Audited `registration.move`.',
    answers: {
      200: '`{moved: [{id, route, kind}], refused: [{id, reason}]}`.',
      400: 'A bad body, each field named; or a named registration that cannot move there, with its reason.',
      404: "No such merchant, or no such registration of this address's environment.",
    },
    examples: [
      {
        name: 'adminRegistrationMoveUnknown',
        summary: 'A registration that is none',
        path: { merchantId },
        json: { registrationIds: [unknownId], route: 1 },
        answer: { status: 404, code: '200.300.406' },
      },
    ],
  }),
  entry({
    method: 'GET',
    path: `${M}/payments.csv`,
    summary: "A merchant's payments as CSV",
    description:
      "The payments list\u2019s filters, every matching payment newest first, streamed a page at a time. `;`-separated, CRLF, RFC 4180 quoting; text cells a spreadsheet would run as a formula start with `'`; amounts as decimal strings; the card as its bin and last four digits.",
    query: queryParameters(paymentListFilters),
    content: 'csv',
    answers: {
      200: 'The CSV (Content-Disposition: attachment).',
      400: 'Invalid filters, each named.',
      404: 'No such merchant.',
    },
    examples: [
      {
        name: 'adminPaymentsCsvBadStatus',
        summary: 'A status that is none',
        path: { merchantId },
        params: { status: 'paid' },
        answer: { status: 400, code: '200.300.404' },
      },
    ],
  }),
  entry({
    method: 'GET',
    path: '/admin/v1/search',
    schema: 'AdminSearch',
    summary: 'Search',
    description:
      "One text looked up as a payment id or merchantTransactionId, a registration id, a checkout id, a merchant id or the start of a merchant's name, each an index lookup. An operator searches every merchant; a merchant's user only their own (and finds no merchants).",
    query: { q: { type: 'string', minLength: 1, maxLength: 255 } },
    answers: {
      200: '`{results: [{kind, id, merchantId, label, paymentId}]}`.',
      400: 'No text, or too long.',
    },
    examples: [
      { name: 'adminSearch', summary: 'A merchant by its id', params: { q: merchantId }, answer: OK },
    ],
  }),
  entry({
    method: 'GET',
    path: `${M}/requests`,
    schema: 'AdminApiRequests',
    summary: "A merchant's recent API requests",
    description: `The merchant API requests its access tokens made, newest first: method, route pattern, status, result code, duration, time and request id; never a body, a parameter or a credential. Recorded off the request's path in batches; the newest ${RETAINED_API_REQUESTS} are kept per merchant.`,
    query: {
      limit: { type: 'integer', minimum: 1, maximum: RETAINED_API_REQUESTS, default: SHOWN_API_REQUESTS },
    },
    answers: {
      200: '`{requests: [{method, route, status, resultCode, durationMs, requestId, at}]}`.',
      400: 'A bad limit.',
      404: 'No such merchant.',
    },
    examples: [
      { name: 'adminApiRequests', summary: 'The newest requests', path: { merchantId }, answer: OK },
    ],
  }),
];
