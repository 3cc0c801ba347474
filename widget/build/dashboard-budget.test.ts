/**
 * The built dashboard (dist/admin/, the build's second entry), as the gateway serves it at /admin/:
 * its size budget, and nothing that its strict CSP or Trusted Types would block.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { beforeAll, describe, expect, it } from 'vitest';
import { ADMIN_DIST, ensureWidgetBuilt, ROOT } from './ensure';

const KB = 1024;
const gzip = (bytes: Buffer) => gzipSync(bytes, { level: 9 }).length;
const file = (path: string) => readFileSync(join(ADMIN_DIST, path));
const assets = () => readdirSync(join(ADMIN_DIST, 'assets'));

beforeAll(async () => {
  await ensureWidgetBuilt();
}, 120_000);

describe('dashboard build', () => {
  it('keeps the dashboard’s JavaScript within 60 KB gzip', () => {
    const scripts = assets().filter((f) => f.endsWith('.js'));
    expect(scripts.length).toBeGreaterThan(0);
    const total = scripts.reduce((sum, f) => sum + gzip(file(`assets/${f}`)), 0);
    console.log(`dashboard: ${(total / KB).toFixed(1)} KB gzip of JavaScript`);
    expect(total).toBeLessThanOrEqual(60 * KB);
  });

  it('lists every file it serves in its manifest', () => {
    const manifest = JSON.parse(file('manifest.json').toString('utf8'));
    expect(manifest.files['index.html']).toBe(file('index.html').length);
    for (const asset of assets()) expect(manifest.files[`assets/${asset}`], asset).toBeGreaterThan(0);
  });

  it('loads only its own hashed files, with no inline script or style', () => {
    const html = file('index.html').toString('utf8');
    const scripts = [...html.matchAll(/<script\b[^>]*>([\s\S]*?)<\/script>/g)];
    expect(scripts.length).toBe(1);
    for (const [tag, body] of scripts) {
      expect(tag).toMatch(/src="\/admin\/assets\/[\w-]+\.js"/);
      expect(body!.trim()).toBe('');
    }
    expect(html).toMatch(/<link rel="stylesheet"[^>]*href="\/admin\/assets\/[\w-]+\.css"/);
    expect(html).not.toMatch(/<style|\sstyle=|\son\w+=|javascript:/i);
  });

  it('contains no eval-like code, and its source no HTML sinks or style attributes', () => {
    for (const asset of assets().filter((f) => f.endsWith('.js'))) {
      const code = file(`assets/${asset}`).toString('utf8');
      expect(code, asset).not.toMatch(/\beval\(|new Function\(|document\.write|insertAdjacentHTML/);
    }
    const sources: string[] = [];
    const walk = (dir: string) => {
      for (const entry of readdirSync(dir, { withFileTypes: true })) {
        const path = join(dir, entry.name);
        if (entry.isDirectory()) walk(path);
        else if (/\.tsx?$/.test(entry.name) && !/\.test\.tsx?$/.test(entry.name)) sources.push(path);
      }
    };
    walk(join(ROOT, 'widget/admin'));
    expect(sources.length).toBeGreaterThan(10);
    for (const path of sources) {
      const code = readFileSync(path, 'utf8');
      expect(code, path).not.toMatch(/innerHTML|dangerouslySetInnerHTML|document\.write|\beval\(|\sstyle=\{/);
    }
  });
});
