/**
 * One shape for failure in the engine (core/failure.ts): every operation and step says "this
 * request cannot be decided" as `Invalid` (`{ kind: 'invalid', errors }`, built by `invalid()`),
 * hands a value on as `{ kind: 'ok', … }`, and refuses with `Refused` / `NotFound`. The probes of
 * other shapes (`'errors' in x`, `'message' in x`) and hand-written failures are what made every
 * operation read differently; this keeps them out.
 */
import { readFileSync } from 'node:fs';
import { dirname, relative, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { modulesUnder } from '../../../server/test-kit/source-tree';

const ENGINE = resolve(dirname(new URL(import.meta.url).pathname), '..');
const HOME = resolve(ENGINE, 'core/failure.ts');

/** `file:line  text` for each production line of the engine outside core/failure.ts that matches. */
function linesMatching(pattern: RegExp): string[] {
  return modulesUnder(ENGINE)
    .filter((path) => path !== HOME)
    .flatMap((path) =>
      readFileSync(path, 'utf8')
        .split('\n')
        .flatMap((line, i) =>
          pattern.test(line) ? [`${relative(ENGINE, path)}:${i + 1}  ${line.trim()}`] : [],
        ),
    );
}

describe('one shape for failure in the engine', () => {
  it("probes no other failure shape ('errors' in x, 'message' in x)", () => {
    expect(linesMatching(/'(errors|message)' in /)).toEqual([]);
  });

  it('writes no failure by hand: invalid(), refused() and NOT_FOUND build them, a passed-on one is returned as it is', () => {
    expect(linesMatching(/kind: '(invalid|refused|not-found)'/)).toEqual([]);
  });
});
