/** Writes docs/parameters.md from the parameter catalogue. */
import { mkdirSync, writeFileSync } from 'node:fs';
import { renderParameterDocs } from '../shared/params/docs';

mkdirSync('docs', { recursive: true });
writeFileSync('docs/parameters.md', renderParameterDocs());
console.log('wrote docs/parameters.md');
