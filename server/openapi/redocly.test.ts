/**
 * The served documents under Redocly's `recommended` rules (@redocly/openapi-core, the linter
 * most used on OpenAPI documents): no error, for the public document a production gateway serves
 * and for the whole one (admin API included); the warnings are counted and printed by rule, and
 * may not grow past those kept on purpose (WARNINGS_AT_MOST).
 */
import { createConfig, lintFromString } from '@redocly/openapi-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type TestGateway, testGateway } from '../test-kit/gateway';
import { openApiDocument, routeDocsFor } from './document';

const ADMIN = 'an-operator-token-of-at-least-32-characters';
let gw: TestGateway;

beforeAll(async () => {
  gw = await testGateway({ env: { GATEWAY_ADMIN_TOKEN: ADMIN }, webhooks: { autoStart: false } });
}, 60_000);
afterAll(async () => {
  await gw?.cleanup();
});

/**
 * A ratchet on the warnings left, each kept on purpose: operation-4xx-response (2: the health
 * probes, answered before every check that refuses; every other route documents the admission's
 * 400 and 403, operation.ts), operation-2xx-response (GET /admin only redirects),
 * no-server-example.com (the test gateway's own localhost addresses), info-license (the package
 * is private and names no licence), no-unused-components (Section.chargeback: the catalogue's
 * section, which no form request kind uses: chargebacks are the admin API's JSON), and
 * no-invalid-media-type-examples for requests refused for their parameters (operation.ts: Redoc
 * renders no example without a `value`, so theirs stays, described as refused): invalidAmount
 * (its amount, and the three fields Redocly then counts as unevaluated in the allOf),
 * acquirerRecordWithoutAmount, signInWithoutPassword. Set REDOCLY_WARNINGS=1 to list them.
 */
const WARNINGS_AT_MOST = 15;

/** Redocly's problems with a document, counted by severity and rule. */
async function lint(document: unknown) {
  const config = await createConfig({
    extends: ['recommended'],
    rules: {
      // Redocly closes each part of an allOf with additionalProperties: false when it checks an
      // example, and our request schemas are an allOf of the catalogue's sections: every example
      // would fail against each section but its own. Our own tests validate every example against
      // the catalogue (openapi.test.ts sends each one), so the parts stay open here.
      'no-invalid-media-type-examples': { severity: 'warn', allowAdditionalProperties: true },
    },
  });
  const problems = await lintFromString({
    source: JSON.stringify(document),
    absoluteRef: 'openapi.json',
    config,
  });
  const byRule: Record<string, number> = {};
  for (const p of problems)
    byRule[`${p.severity} ${p.ruleId}`] = (byRule[`${p.severity} ${p.ruleId}`] ?? 0) + 1;
  if (process.env.REDOCLY_WARNINGS)
    for (const p of problems)
      if (p.severity === 'warn') console.info(p.ruleId, p.message, p.location[0]?.pointer ?? '');
  const errors = problems
    .filter((p) => p.severity === 'error')
    .map((p) => `${p.ruleId}: ${p.message} (${p.location[0]?.pointer ?? ''})`);
  return { errors, warnings: problems.filter((p) => p.severity === 'warn').length, byRule };
}

describe("the OpenAPI documents under Redocly's recommended rules", () => {
  it('GET /v1/openapi.json (as served): no error', async () => {
    const res = await gw.get('/v1/openapi.json');
    expect(res.status).toBe(200);
    const { errors, warnings, byRule } = await lint(res.body);
    console.info(`Redocly, /v1/openapi.json: ${errors.length} errors, ${warnings} warnings`, byRule);
    expect(errors).toEqual([]);
    expect(warnings).toBeLessThanOrEqual(WARNINGS_AT_MOST);
  }, 60_000);

  it('GET /admin/v1/openapi.json (as served): no error', async () => {
    const res = await gw.get('/admin/v1/openapi.json', {}, { token: ADMIN });
    expect(res.status).toBe(200);
    const { errors, warnings, byRule } = await lint(res.body);
    console.info(`Redocly, /admin/v1/openapi.json: ${errors.length} errors, ${warnings} warnings`, byRule);
    expect(errors).toEqual([]);
    expect(warnings).toBeLessThanOrEqual(WARNINGS_AT_MOST);
  }, 60_000);

  it("a production gateway's public document (no admin API): no error", async () => {
    const { errors, warnings, byRule } = await lint(
      openApiDocument({ test: 'https://gateway.test' }, routeDocsFor('public')),
    );
    console.info(
      `Redocly, production public document: ${errors.length} errors, ${warnings} warnings`,
      byRule,
    );
    expect(errors).toEqual([]);
    expect(warnings).toBeLessThanOrEqual(WARNINGS_AT_MOST);
  }, 60_000);
});
