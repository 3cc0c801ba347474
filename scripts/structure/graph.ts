/**
 * `npm run graph`: the import graph's figures on today's tree. File cycles (tests included, as
 * structure.test.ts counts them), folder loops at each level of LEVELS and their knots (production
 * modules: a test's imports are not its folder's), and the longest import chain from
 * server/main.ts, in links, with the chain itself. `--json` prints the figures as one JSON object.
 * `--repo <folder>` measures another checkout (e.g. `git archive` of an older commit) with this one's
 * tool. Exits 1 when there is a file cycle, so it can stand in a script's chain.
 */
import { resolve } from 'node:path';
import { type GraphFigures, LOOP_LIMIT, measure, PROGRAM } from './import-graph';

const at = process.argv.indexOf('--repo');
const REPO = resolve(at === -1 ? new URL('../..', import.meta.url).pathname : process.argv[at + 1]!);

function report(figures: GraphFigures): string[] {
  const lines = [`file cycles: ${figures.fileCycles.length}`, ...figures.fileCycles.map((c) => `  ${c}`)];
  const loops = figures.levels.reduce((sum, l) => sum + l.loops.length, 0);
  lines.push(`folder loops: ${loops}`);
  for (const { level, loops: found, knots } of figures.levels) {
    const atLeast = found.length >= LOOP_LIMIT ? 'at least ' : '';
    lines.push(`  ${level}<x>: ${atLeast}${found.length} loops in ${knots.length} knots`);
    for (const knot of knots) lines.push(`    knot: ${knot.join(', ')}`);
    for (const loop of found) lines.push(`    ${loop.join(' → ')}`);
  }
  lines.push(`longest chain from ${PROGRAM}: ${Math.max(0, figures.chain.length - 1)} links`);
  lines.push(...figures.chain.map((m, i) => `  ${String(i).padStart(2)} ${m}`));
  return lines;
}

const figures = measure(REPO);
if (process.argv.includes('--json'))
  console.log(
    JSON.stringify({
      fileCycles: figures.fileCycles,
      folderLoops: Object.fromEntries(
        figures.levels.map((l) => [l.level, l.loops.map((x) => x.join(' → '))]),
      ),
      knots: Object.fromEntries(figures.levels.map((l) => [l.level, l.knots])),
      chainLinks: Math.max(0, figures.chain.length - 1),
      chain: figures.chain,
    }),
  );
else console.log(report(figures).join('\n'));
process.exitCode = figures.fileCycles.length > 0 ? 1 : 0;
