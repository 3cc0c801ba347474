/**
 * The docs a newcomer reads (README.md and docs/*.md, issue 34): no link leaves the repository
 * (http(s) addresses excepted) or points at a missing file or heading, and every ```sh example runs
 * as written against one real gateway process, standing alone: only the addresses, the data folder
 * and the admin token the docs declare (docs/README.md, "The examples") are the test gateway's.
 */
import { execFile } from 'node:child_process';
import { existsSync, statSync } from 'node:fs';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join, relative, resolve } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freePort } from '../../server/test-kit/postgres';
import { type SpawnedGateway, spawnGateway } from '../../server/test-kit/process';
import {
  anchorsOf,
  codePathsOf,
  DOC_FILES,
  linksOf,
  promisedCodes,
  REPO,
  readDoc,
  shellExamples,
} from './guides';

const run = promisify(execFile);
const ADMIN_TOKEN = 'change-me-to-a-long-random-secret';

/** What is wrong with one link of `file`, or undefined. */
function brokenLink(file: string, href: string): string | undefined {
  if (/^https?:\/\//.test(href)) return undefined;
  if (/^[a-z][a-z0-9+.-]*:/i.test(href)) return 'not a link into the repository';
  const [path = '', anchor] = href.split('#');
  const target = path === '' ? join(REPO, file) : resolve(dirname(join(REPO, file)), decodeURI(path));
  if (relative(REPO, target).startsWith('..')) return 'leaves the repository';
  if (!existsSync(target)) return 'no such file';
  if (anchor === undefined || anchor === '') return undefined;
  if (statSync(target).isDirectory() || !target.endsWith('.md'))
    return 'an anchor into a file without headings';
  return anchorsOf(readDoc(relative(REPO, target))).has(anchor) ? undefined : `no heading #${anchor}`;
}

describe('the docs', () => {
  it('README.md is at most 250 lines and points at the guides', async () => {
    const readme = readDoc('README.md');
    expect(readme.split('\n').length).toBeLessThanOrEqual(250);
    expect(readme).toContain('npm install && npm start');
    expect(readme).toContain('npm test');
    expect(linksOf(readme)).toContain('docs/getting-started.md');
  });

  it('no link leaves the repository or points at a missing file or heading', () => {
    const broken = DOC_FILES.flatMap((file) =>
      linksOf(readDoc(file)).flatMap((href) => {
        const why = brokenLink(file, href);
        return why === undefined ? [] : [`${file}: ${href}: ${why}`];
      }),
    );
    expect(broken).toEqual([]);
  });

  it('names no file outside the repository, in a link or in code', () => {
    const outside = DOC_FILES.flatMap((file) =>
      codePathsOf(readDoc(file))
        .filter((path) => relative(REPO, resolve(dirname(join(REPO, file)), path)).startsWith('..'))
        .map((path) => `${file}: ${path}`),
    );
    expect(outside).toEqual([]);
  });

  it('the link check tells a link out of the repository and a missing heading', () => {
    expect(brokenLink('README.md', '../shared/spec/')).toBe('leaves the repository');
    expect(brokenLink('docs/api.md', 'operations.md#no-such-heading')).toBe('no heading #no-such-heading');
    expect(brokenLink('docs/api.md', 'operations.md#security')).toBeUndefined();
  });
});

describe('the docs shell examples', () => {
  const examples = shellExamples();
  let dataDir: string;
  let gateway: SpawnedGateway;
  let shopPort: number;

  beforeAll(async () => {
    dataDir = await mkdtemp(join(tmpdir(), 'gateway-docs-'));
    shopPort = await freePort();
    gateway = await spawnGateway({
      dataDir,
      env: { GATEWAY_ADMIN_TOKEN: ADMIN_TOKEN, DEMO_SHOP_PORT: String(shopPort) },
      // eight engineers' tests share two cores: the first start compiles on load
      readyTimeoutMs: 120_000,
    });
  }, 150_000);
  afterAll(async () => {
    await gateway?.stop();
    await rm(dataDir, { recursive: true, force: true });
  });

  it('finds the examples of every guide', () => {
    console.info(`docs shell examples: ${examples.length}`);
    expect(examples.length).toBeGreaterThanOrEqual(9);
  });

  it.each(examples.map((e) => [`${e.file}:${e.line}`, e] as const))(
    '%s runs as written, standing alone, and answers the codes its comments promise',
    async (_name, example) => {
      const answers = join(dataDir, `answers-${example.line}.txt`);
      const script = [
        'set -eu',
        // every answer on its own line, and kept (also those a $(…) captures) to be checked
        `curl() { command curl "$@" | tee -a '${answers}'; echo; echo >> '${answers}'; }`,
        example.script
          .replaceAll('http://127.0.0.1:8080', gateway.baseUrl)
          .replaceAll('http://127.0.0.1:8081', `http://127.0.0.1:${shopPort}`)
          .replaceAll('./data/', `${dataDir}/`),
      ].join('\n');
      await run('bash', ['-c', script], { cwd: REPO, timeout: 60_000 });
      const bodies = (await readFile(answers, 'utf8').catch(() => ''))
        .split('\n')
        .filter((line) => line.startsWith('{'))
        .map((line) => JSON.parse(line) as { result?: { code?: string } });
      const codes = bodies.map((body) => body.result?.code);
      // each promised code among the answers, in the order the comments promise them
      let from = 0;
      for (const code of promisedCodes(example.script)) {
        const at = codes.indexOf(code, from);
        expect(at, `${code} after answer ${from} of ${JSON.stringify(codes)}`).toBeGreaterThanOrEqual(0);
        from = at + 1;
      }
    },
    90_000,
  );
});
