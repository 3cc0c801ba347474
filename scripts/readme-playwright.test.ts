/**
 * The QA kit guide's (docs/testing-kit.md) "Testing your shop with Playwright" example is the example QA project's suite,
 * byte for byte: `npm test` runs it (Vitest runs scripts/package/packaged-kit.test.ts, which
 * installs the packed tarball into fresh projects made of it), so the printed example cannot
 * break unnoticed.
 */
import { readFile } from 'node:fs/promises';
import { describe, expect, it } from 'vitest';

const read = (path: string) => readFile(new URL(`../${path}`, import.meta.url), 'utf8');

describe('docs/testing-kit.md: Testing your shop with Playwright', () => {
  it('prints the example QA project suite as it is', async () => {
    const readme = await read('docs/testing-kit.md');
    const from = readme.indexOf('## Testing your shop with Playwright');
    const block = /```ts\n([\s\S]*?)```/.exec(readme.slice(from));
    expect(from).toBeGreaterThan(-1);
    expect(block?.[1]).toBe(await read('e2e/examples/qa-playwright/tests/shop.spec.ts'));
  });

  it('npm test runs the example QA project, installed from the packed tarball', async () => {
    const pkg = JSON.parse(await read('package.json')) as { scripts: Record<string, string> };
    expect(pkg.scripts.test).toContain('vitest run');
    const packaged = await read('scripts/package/packaged-kit.test.ts');
    expect(packaged).toContain("join(REPO, 'e2e/examples/qa-playwright')");
    expect(packaged).toContain("'npm', ['pack'");
  });
});
