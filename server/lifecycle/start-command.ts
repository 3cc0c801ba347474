/**
 * `npm start` as data: package.json's start script read as `[NAME=value …] node <flags> <script>`.
 * The benchmark and the bundle's test start the gateway exactly as operators do from this one
 * reading, so a flag or a setting added to the script is measured and tested with it.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));

export interface StartCommand {
  /** The environment the script sets before `node` (the allocator's settings). */
  readonly env: Readonly<Record<string, string>>;
  /** Node's flags, before the script. */
  readonly nodeArgs: readonly string[];
  /** The program node runs (dist/server/main.js). */
  readonly script: string;
}

const ASSIGNMENT = /^([A-Z_][A-Z0-9_]*)=([^\s"'$`\\]*)$/;

/** Parses a start script; throws on anything but plain assignments, `node`, flags and a script. */
export function parseStartScript(start: string): StartCommand {
  const words = start.trim().split(/\s+/);
  const env: Record<string, string> = {};
  let i = 0;
  for (let m = ASSIGNMENT.exec(words[i] ?? ''); m !== null; m = ASSIGNMENT.exec(words[++i] ?? ''))
    env[m[1]!] = m[2]!;
  const [program, ...args] = words.slice(i);
  const script = args.at(-1);
  if (program !== 'node' || script === undefined || args.some((a) => /["'$`\\]/.test(a)))
    throw new Error(`package.json's start script is not a plain \`[NAME=value …] node …\` command: ${start}`);
  return { env, nodeArgs: args.slice(0, -1), script };
}

/** package.json's start script. */
export function startCommand(): StartCommand {
  const pkg = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { scripts: { start: string } };
  return parseStartScript(pkg.scripts.start);
}
