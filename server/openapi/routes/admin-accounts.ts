/**
 * The OpenAPI entries of the admin API's session, merchants, tokens, users and audit log
 * (server/http/routes/admin/session.ts, channels.ts, tokens.ts, users.ts; docs/admin-api.md is
 * their prose contract). The role each needs is the route table's (operation.ts reads it).
 */
import { auditQuery } from '../../../shared/contract/admin-queries';
import { queryParameters } from '../../../shared/contract/json-schema';
import { DONE, type RouteDoc } from '../route-doc';
import { SAMPLE } from '../samples';

const { merchantId, unknownId, admin } = SAMPLE;

/** What every admin route may answer besides its own. */
export const ADMIN_REFUSALS = {
  401: 'No or expired session, or no or wrong operator token.',
  403: "A role without this access, a session's state-changing request without its X-CSRF-Token, or a state-changing request from another site (Origin, Sec-Fetch-Site).",
  415: 'A state-changing request whose body is not application/json.',
  429: 'Too many wrong tokens from this address.',
} as const;

const USER =
  '`user`: `{id, username, role, merchantId (null for operators), totpEnabled, disabled, createdAt}`.';

const entry = (doc: Omit<RouteDoc, 'tag' | 'auth'> & Partial<Pick<RouteDoc, 'auth'>>): RouteDoc => ({
  tag: 'Administration',
  auth: 'admin',
  ...doc,
  answers: { ...doc.answers, ...ADMIN_REFUSALS },
});

const SESSION_ROUTES: readonly RouteDoc[] = [
  {
    method: 'POST',
    path: '/admin/v1/session',
    schema: 'AdminSession',
    tag: 'Administration',
    summary: 'Sign in',
    description: `Opens a session: the \`gw_admin\` cookie and the answer's \`csrfToken\` (for X-CSRF-Token). Ten failures (wrong passwords or codes) lock the account for 30 minutes or until it is unlocked (POST /admin/v1/users/{id}/unlock), answered like any wrong password; failures are also slowed per client address and per address and username, known or not. The body must be application/json (415 otherwise) and not from another site (403 on a foreign Origin or Sec-Fetch-Site). With GATEWAY_ADMIN_REQUIRE_TOTP=on a user without a second factor gets \`totpSetupRequired: true\` and may only set it up. ${USER}`,
    auth: 'public',
    json: 'AdminSignInInput',
    answers: {
      200: '`{user, csrfToken}` and the session cookie.',
      400: 'A missing field, named.',
      401: 'Wrong credentials; `totpRequired: true` when the password was right and a code is needed (or was wrong).',
      403: 'From another site (Origin, Sec-Fetch-Site): no login CSRF.',
      415: 'A body that is not application/json (what a cross-site form sends).',
      429: 'Too many failures from this address (at this username): Retry-After says when to try again.',
    },
    examples: [
      {
        name: 'signIn',
        summary: 'Sign in with username and password',
        json: { username: admin.username, password: admin.password },
        answer: DONE,
      },
      {
        name: 'signInWithoutPassword',
        summary: 'A missing password',
        json: { username: admin.username },
        answer: { status: 400, code: '200.300.404' },
      },
    ],
  },
  entry({
    method: 'GET',
    path: '/admin/v1/session',
    schema: 'AdminSession',
    summary: 'The session: its user and CSRF token',
    auth: 'session',
    answers: { 200: '`{user, csrfToken}`.', 400: "The operator's token has no session." },
    examples: [{ name: 'sessionRead', summary: 'Read it', answer: DONE }],
  }),
  entry({
    method: 'DELETE',
    path: '/admin/v1/session',
    summary: 'Sign out',
    auth: 'session',
    answers: { 200: 'Signed out; the cookie cleared.', 400: "The operator's token has no session." },
    examples: [{ name: 'signOut', summary: 'Sign out', answer: DONE }],
  }),
  entry({
    method: 'POST',
    path: '/admin/v1/session/password',
    schema: 'AdminUserAnswer',
    summary: 'Change one’s password',
    description:
      "The user's other sessions are signed out. A wrong current password counts as a failed sign-in.",
    auth: 'session',
    json: 'AdminPasswordChangeInput',
    answers: {
      200: '`{user}`.',
      400: 'The current password is wrong, or the new one too short (each named).',
    },
    examples: [
      {
        name: 'passwordWrongCurrent',
        summary: 'A wrong current password',
        json: { currentPassword: 'not the password', newPassword: 'a new long passphrase' },
        answer: { status: 400, code: '200.300.404' },
      },
    ],
  }),
  entry({
    method: 'POST',
    path: '/admin/v1/session/totp',
    schema: 'AdminTotpSetup',
    summary: 'Set up the second factor (TOTP)',
    description:
      'A new secret for the authenticator app; not active until a code from it is confirmed. Takes the current password and, to replace a confirmed factor, a current code; a wrong one counts as a failed sign-in.',
    auth: 'session',
    json: 'AdminTotpStartInput',
    answers: {
      200: '`{secret, otpauthUrl}`.',
      400: "The operator's token has no session, or a wrong password or code (each named).",
    },
    examples: [{ name: 'totpSetup', summary: 'Start', json: { password: admin.password }, answer: DONE }],
  }),
  entry({
    method: 'POST',
    path: '/admin/v1/session/totp/confirm',
    schema: 'AdminUserAnswer',
    summary: 'Confirm the second factor with a code',
    auth: 'session',
    json: 'AdminTotpConfirmInput',
    answers: { 200: '`{user}` (totpEnabled true).', 400: 'A wrong code, or no setup started.' },
    examples: [
      {
        name: 'totpWrongCode',
        summary: 'A code that is not the current one',
        json: { code: '000000' },
        answer: { status: 400, code: '200.300.404' },
      },
    ],
  }),
];

const MERCHANT_ROUTES: readonly RouteDoc[] = [
  entry({
    method: 'GET',
    path: '/admin/v1/merchants',
    schema: 'AdminMerchantList',
    summary: 'Merchants',
    description: 'Every merchant for an operator; a merchant user only theirs.',
    answers: { 200: '`merchants`: `[{id, name, dispatching, createdAt}]`.' },
    examples: [{ name: 'merchants', summary: 'List them', answer: DONE }],
  }),
  entry({
    method: 'POST',
    path: '/admin/v1/merchants',
    schema: 'AdminMerchant',
    summary: 'Create a merchant',
    json: 'AdminMerchantInput',
    answers: {
      201: 'The merchant.',
      400: 'A missing, empty (after trimming), too long (over 100 characters) or unprintable name.',
    },
    examples: [
      {
        name: 'merchantCreate',
        summary: 'A new merchant',
        json: { name: 'Example Shop Ltd' },
        answer: { status: 201, code: '000.000.100' },
      },
    ],
  }),
  entry({
    method: 'GET',
    path: '/admin/v1/merchants/:merchantId',
    schema: 'AdminMerchant',
    summary: 'A merchant',
    answers: {
      200: '`{id, name, dispatching, createdAt}`.',
      404: 'No such merchant (or another merchant’s).',
    },
    examples: [
      {
        name: 'merchant',
        summary: 'Read it',
        path: { merchantId },
        answer: DONE,
      },
    ],
  }),
  entry({
    method: 'GET',
    path: '/admin/v1/merchants/:merchantId/tokens',
    schema: 'AdminTokenList',
    summary: "A merchant's access tokens",
    answers: {
      200: '`tokens`: `[{id, merchantId, userId, environment, channels, createdAt, lastUsedAt, revokedAt}]` (`lastUsedAt` to the minute).',
      404: 'No such merchant.',
    },
    examples: [
      {
        name: 'tokens',
        summary: 'List them',
        path: { merchantId },
        answer: DONE,
      },
    ],
  }),
  entry({
    method: 'POST',
    path: '/admin/v1/merchants/:merchantId/tokens',
    schema: 'AdminTokenCreated',
    summary: 'Create an access token',
    description: 'Only its userId and a hash of its secret are kept: `accessToken` is shown once.',
    json: 'AdminTokenInput',
    answers: {
      201: 'The token and its `accessToken`.',
      400: 'Invalid fields, each named.',
      404: 'No such merchant.',
    },
    examples: [
      {
        name: 'tokenCreate',
        summary: 'A test token for every channel',
        path: { merchantId },
        json: { environment: 'test' },
        answer: { status: 201, code: '000.000.100' },
      },
    ],
  }),
  entry({
    method: 'DELETE',
    path: '/admin/v1/merchants/:merchantId/tokens/:id',
    schema: 'AdminToken',
    summary: 'Revoke an access token',
    answers: { 200: 'The token, revoked.', 404: 'No such merchant or token.' },
    examples: [
      {
        name: 'tokenRevoke',
        summary: 'Revoke the token just created',
        path: { merchantId, id: { idOf: 'tokenCreate' } },
        answer: DONE,
      },
    ],
  }),
];

const USER_ROUTES: readonly RouteDoc[] = [
  entry({
    method: 'GET',
    path: '/admin/v1/users',
    schema: 'AdminUserList',
    summary: 'Users',
    description: `An operator sees everyone (\`?merchantId=\` narrows); a merchant's users see their merchant's. ${USER}`,
    query: { merchantId: { type: 'string', description: 'Only this merchant’s users (operators).' } },
    answers: { 200: '`users`.' },
    examples: [
      {
        name: 'users',
        summary: "A merchant's users",
        params: { merchantId },
        answer: DONE,
      },
    ],
  }),
  entry({
    method: 'POST',
    path: '/admin/v1/users',
    schema: 'AdminUserAnswer',
    summary: 'Create a user',
    description: `A merchant admin creates users of their own merchant, never operators. The password is generated when not given (shown once). ${USER}`,
    json: 'AdminUserInput',
    answers: {
      201: '`{user, password?}`.',
      400: 'Invalid fields, each named (a taken username …).',
      404: 'Another merchant.',
    },
    examples: [
      {
        name: 'userCreate',
        summary: 'A viewer of a merchant, the password generated',
        json: { username: 'viewer@shop.example', role: 'merchant-viewer', merchantId },
        answer: { status: 201, code: '000.000.100' },
      },
    ],
  }),
  entry({
    method: 'POST',
    path: '/admin/v1/users/:id/disable',
    schema: 'AdminUserAnswer',
    summary: 'Disable a user',
    description: 'Their sessions end; they can no longer sign in.',
    answers: { 200: '`{user}`.', 404: 'No such user (or one the caller may not manage).' },
    examples: [
      {
        name: 'userDisable',
        summary: 'Disable the user just created',
        path: { id: { idOf: 'userCreate', field: 'user.id' } },
        answer: DONE,
      },
    ],
  }),
  entry({
    method: 'POST',
    path: '/admin/v1/users/:id/reset-password',
    schema: 'AdminUserAnswer',
    summary: "Reset a user's password",
    answers: { 200: '`{user, password}` (the new password, shown once).', 404: 'No such user.' },
    examples: [
      {
        name: 'userResetPassword',
        summary: 'A new password for the user just created',
        path: { id: { idOf: 'userCreate', field: 'user.id' } },
        answer: DONE,
      },
      {
        name: 'unknownUser',
        summary: 'An id no user has',
        path: { id: unknownId },
        answer: { status: 404, code: '200.300.406' },
      },
    ],
  }),
  entry({
    method: 'POST',
    path: '/admin/v1/users/:id/unlock',
    schema: 'AdminUserAnswer',
    summary: 'Unlock a user',
    description: 'Lifts the lock of ten failed sign-ins (and their count); the password stays.',
    answers: { 200: '`{user}`.', 404: 'No such user (or one the caller may not manage).' },
    examples: [
      {
        name: 'userUnlock',
        summary: 'Unlock the user just created',
        path: { id: { idOf: 'userCreate', field: 'user.id' } },
        answer: DONE,
      },
    ],
  }),
  entry({
    method: 'GET',
    path: '/admin/v1/audit',
    schema: 'AdminAuditPage',
    summary: 'The audit log',
    description:
      'Every action: who, what, on what, for which merchant, from where; oldest first. An operator sees all, a merchant admin their merchant’s.',
    query: queryParameters(auditQuery),
    answers: {
      200: '`{entries: [{id, at, actor, role, action, target, merchantId, address}], next}` (`next` null on the last page).',
      400: 'Invalid after or limit.',
    },
    examples: [
      {
        name: 'audit',
        summary: 'The first page',
        params: { limit: '50' },
        answer: DONE,
      },
      {
        name: 'auditBadLimit',
        summary: 'A limit over 500',
        params: { limit: '501' },
        answer: { status: 400, code: '200.300.404' },
      },
    ],
  }),
];

export const ADMIN_ACCOUNT_ROUTES: readonly RouteDoc[] = [
  ...SESSION_ROUTES,
  ...MERCHANT_ROUTES,
  ...USER_ROUTES,
];
