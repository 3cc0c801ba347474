/**
 * The document's shared parts: the answers' schemas (from shared/contract), the result-code
 * catalogue (groups and every code, from shared/result-codes) and the security schemes.
 */
import { RESULT_CODE_PATTERN } from '../../shared/contract';
import { contractSchemas } from '../../shared/contract/json-schema';
import { RESULT_CODE_GROUPS, RESULT_CODES } from '../../shared/result-codes';
import type { JsonSchema } from './schema';

export { RESULT_CODE_PATTERN };

/** The groups as a Markdown table: what a code means by its pattern (facts §1.4). */
export function resultCodeGroupsTable(): string {
  const rows = RESULT_CODE_GROUPS.map(
    (g) => `| ${g.title} | \`${g.pattern.source.replaceAll('|', '\\|')}\` |`,
  );
  return ['| Group | Pattern |', '|---|---|', ...rows].join('\n');
}

/**
 * The answers' schemas, derived from the contract (shared/contract: the envelope, Result,
 * ParameterError, Payment, Registration, Schedule, Notification …), never restated here; the
 * result code's description gains the groups' table.
 */
export function envelopeSchemas(): Record<string, JsonSchema> {
  const schemas = contractSchemas();
  const code = schemas.ResultCode ?? {};
  schemas.ResultCode = {
    ...code,
    description: `${code.description} Evaluated in this order; the full catalogue is \`x-resultCodes\` and GET /v1/resultcodes.\n\n${resultCodeGroupsTable()}`,
  };
  return schemas;
}

/** Every code of the catalogue with its description: the `x-resultCodes` extension. */
export const resultCodeCatalogue = (): Record<string, string> => Object.fromEntries(RESULT_CODES);

export const SECURITY_SCHEMES = {
  merchantBearer: {
    type: 'http',
    scheme: 'bearer',
    description:
      "The merchant's access token: `Authorization: Bearer <token>` (`gateway token create`). A token belongs to one environment, test or live.",
  },
  legacyParameters: {
    type: 'apiKey',
    in: 'query',
    name: 'authentication.userId',
    description:
      'Deprecated: `authentication.userId` with `authentication.password` (and `authentication.entityId`) as form or query parameters, the two halves of the access token. Use the Bearer token.',
  },
  operatorBearer: {
    type: 'http',
    scheme: 'bearer',
    description:
      "The operator's admin token (GATEWAY_ADMIN_TOKEN, at least 32 characters): acts as the role operator, needs no CSRF token. Without one only signed-in users reach the admin API.",
  },
  adminSession: {
    type: 'apiKey',
    in: 'cookie',
    name: 'gw_admin',
    description:
      "A signed-in user's session (the dashboard): the cookie POST /admin/v1/session sets (HttpOnly, SameSite=Strict, Path=/admin, Secure over TLS; idle expiry 30 min, absolute 12 h).",
  },
  adminCsrf: {
    type: 'apiKey',
    in: 'header',
    name: 'X-CSRF-Token',
    description:
      "With a session, every state-changing request (POST, PUT, PATCH, DELETE) sends the session's csrfToken (from the sign-in answer or GET /admin/v1/session): 403 without it.",
  },
} as const;
