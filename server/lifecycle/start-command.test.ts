import { describe, expect, it } from 'vitest';
import { parseStartScript, startCommand } from './start-command';

describe('the start script read as data', () => {
  it('reads the environment, the flags and the program of package.json’s start script', () => {
    const start = startCommand();
    expect(start.script).toBe('dist/server/main.js');
    expect(start.nodeArgs).toContain('--expose-gc');
    expect(start.env).toMatchObject({ MALLOC_TRIM_THRESHOLD_: '131072', MALLOC_MMAP_THRESHOLD_: '131072' });
  });

  it('separates leading assignments from node and its flags', () => {
    expect(parseStartScript('A_B=1 C=x node --f=2 main.js')).toEqual({
      env: { A_B: '1', C: 'x' },
      nodeArgs: ['--f=2'],
      script: 'main.js',
    });
    expect(parseStartScript('node main.js')).toEqual({ env: {}, nodeArgs: [], script: 'main.js' });
  });

  it('refuses what a shell would interpret or another program', () => {
    expect(() => parseStartScript('tsx server/main.ts')).toThrow(/not a plain/);
    expect(() => parseStartScript('node $FLAGS main.js')).toThrow(/not a plain/);
    expect(() => parseStartScript('A="1 2" node main.js')).toThrow(/not a plain/);
    expect(() => parseStartScript('node')).toThrow(/not a plain/);
  });
});
