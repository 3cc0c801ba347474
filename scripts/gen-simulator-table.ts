/** Rewrites the README's simulator test-data table from the simulator's tables (e2e/kit/simulator-table.ts). */
import { readFileSync, writeFileSync } from 'node:fs';
import { withSimulatorTable } from '../e2e/kit/simulator-table';

writeFileSync('README.md', withSimulatorTable(readFileSync('README.md', 'utf8')));
console.log('wrote the simulator table in README.md');
