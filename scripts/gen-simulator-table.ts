/** Rewrites the simulator guide's (docs/simulator.md) test-data table from the simulator's tables (e2e/kit/simulator-table.ts). */
import { readFileSync, writeFileSync } from 'node:fs';
import { withSimulatorTable } from '../e2e/kit/simulator-table';

writeFileSync('docs/simulator.md', withSimulatorTable(readFileSync('docs/simulator.md', 'utf8')));
console.log('wrote the simulator table in docs/simulator.md');
