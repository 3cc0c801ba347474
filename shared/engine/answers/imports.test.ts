/**
 * Answers sit below operations: what the merchant and the shopper are told is rendered from the
 * records alone, so an operation (and storage, through the notifications the engine hands it)
 * may use any answer without a loop of folders (answers → operations → steps → answers).
 */
import { dirname, join, relative, resolve, sep } from 'node:path';
import { describe, expect, it } from 'vitest';
import { importGraph, modulesUnder } from '../../../server/test-kit/source-tree';

const ANSWERS = dirname(new URL(import.meta.url).pathname);
const ENGINE = resolve(ANSWERS, '..');
const REPO = resolve(ENGINE, '../..');
const graph = importGraph(modulesUnder(ANSWERS));

describe('the answers’ imports', () => {
  it('reads the answers (notifications among them)', () => {
    expect([...graph.keys()].some((m) => m.endsWith(join('answers', 'notifications.ts')))).toBe(true);
  });

  it('import no operation and no step', () => {
    const above = [join(ENGINE, 'operations') + sep, join(ENGINE, 'steps') + sep];
    const offending = [...graph].flatMap(([m, imports]) =>
      imports
        .filter((i) => above.some((a) => i.startsWith(a)))
        .map((i) => `${relative(REPO, m)} imports ${relative(REPO, i)}`),
    );
    expect(offending).toEqual([]);
  });
});
