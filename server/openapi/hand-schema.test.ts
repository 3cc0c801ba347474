/**
 * A ratchet on the JSON Schema written by hand in the route entries (server/openapi/routes/):
 * request bodies and answers come from the contract (shared/contract: `json`, `schema`, a `$ref`
 * to a named part), so the lines that spell a schema's keywords there may only shrink. Lower
 * MAX_HAND_SCHEMA_LINES when a form or query moves into the contract.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';

const MAX_HAND_SCHEMA_LINES = 43;
const ROUTES = join(import.meta.dirname, 'routes');
/** A line spelling a JSON Schema keyword (a `$ref` to the contract is none). */
const KEYWORD =
  /type: '|properties: \{|pattern: |enum: \[|required: \[|items: |minLength|maxLength|format: '|const: |minimum|maximum/;

describe('hand-written JSON Schema in the route entries', () => {
  it(`stays at most ${MAX_HAND_SCHEMA_LINES} lines`, () => {
    const perFile = readdirSync(ROUTES)
      .filter((name) => name.endsWith('.ts'))
      .map((name) => {
        const lines = readFileSync(join(ROUTES, name), 'utf8').split('\n');
        return [name, lines.filter((line) => KEYWORD.test(line)).length] as const;
      });
    const total = perFile.reduce((sum, [, n]) => sum + n, 0);
    expect(total, JSON.stringify(Object.fromEntries(perFile))).toBeLessThanOrEqual(MAX_HAND_SCHEMA_LINES);
  });
});
