/**
 * The fidelity corpus against the real app: every entry of server/fidelity/corpus/ is sent to one
 * gateway (testGateway: SQLite in a temporary folder, the demo merchant and its channel) and its
 * answer checked against the entry's expectation. A failing entry names what the gateway answered
 * (code, description, parameterErrors): the difference from the family to fix.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type TestGateway, testGateway } from '../test-kit/gateway';
import { CORPUS, PRIORS } from './corpus';
import type { Entry } from './entry';
import { corpusRunner, summary } from './runner';

const ALL: readonly Entry[] = CORPUS.flatMap((s) => s.entries);

describe('the corpus itself', () => {
  it('names a source (repo and path) for every entry, and each name once', () => {
    const unnamed = [...ALL, ...PRIORS].filter(
      (e) => !/^[\w.-]+\/[\w.-]+$/.test(e.source.repo) || e.source.path.trim() === '',
    );
    expect(unnamed.map((e) => e.name)).toEqual([]);
    const names = [...ALL, ...PRIORS].map((e) => e.name);
    expect(names.filter((n, i) => names.indexOf(n) !== i)).toEqual([]);
  });

  it.each(CORPUS.map((s) => [s.name, s.entries.length, s.atLeast] as const))(
    '%s has at least its count of entries',
    (_name, size, atLeast) => {
      expect(size).toBeGreaterThanOrEqual(atLeast);
    },
  );
});

describe('the gateway answers the corpus as the family does', () => {
  let gw: TestGateway;
  let run: ReturnType<typeof corpusRunner>['run'];
  const failures: string[] = [];
  /** FIDELITY_VERBOSE=1 lists every entry's answer, passing or not. */
  const answers: string[] = [];

  beforeAll(async () => {
    gw = await testGateway();
    // The demo merchant's test channel (3-D Secure on, every brand and currency), as a new shop has it.
    const demo = { entityId: gw.demo!.entityId, token: gw.demo!.accessToken };
    const wire = (method: string, path: string, body: string | undefined, headers: Record<string, string>) =>
      gw.send(method, path, body, { headers });
    run = corpusRunner(wire, demo, [...ALL, ...PRIORS]).run;
  });

  afterAll(async () => {
    // One line per failing entry: the list of what still differs from the family.
    if (failures.length > 0)
      console.log(`fidelity corpus: ${failures.length} failing\n${failures.join('\n')}`);
    if (process.env.FIDELITY_VERBOSE === '1') console.log(answers.join('\n'));
    await gw?.cleanup();
  });

  describe.each(CORPUS.map((s) => [s.name, s.entries] as const))('%s', (source, entries) => {
    it.each(entries.map((e) => [e.name, e] as const))('%s', async (name, entry) => {
      // A prior the gateway refused is this entry's failure too: reported with the prior's answer.
      const problems = await run(entry).then(
        (outcome) => {
          answers.push(`${name}: ${summary(outcome.answer)}`);
          return outcome.problems;
        },
        (error: Error) => [error.message],
      );
      if (problems.length > 0) failures.push(`${source} › ${name}: ${problems.join(' | ')}`);
      expect(problems).toEqual([]);
    });
  });
});
