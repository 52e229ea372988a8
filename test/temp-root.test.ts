// A run's temporary files go in one folder of its own, removed when it ends (test/temp-root.ts):
// a test, or a CLI, browser or server it starts, that leaves a file behind leaves it there.
import { existsSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { TEMP_ROOT_VARIABLE, useTempRoot } from './temp-root.js';

describe('the run’s temporary folder', () => {
  it('is where this worker’s temporary files go', () => {
    const root = process.env[TEMP_ROOT_VARIABLE];
    expect(root).toBeDefined();
    expect(tmpdir()).toBe(root);
    expect(existsSync(root!)).toBe(true);
  });

  it('is made and then removed with what was left in it, TMPDIR as it was', () => {
    const env: NodeJS.ProcessEnv = { TMPDIR: '/somewhere' };
    const end = useTempRoot(env);
    const root = env.TMPDIR!;
    expect(root).toMatch(/petstore-kit-tests-/);
    expect(env[TEMP_ROOT_VARIABLE]).toBe(root);
    writeFileSync(join(root, 'left-behind'), '');
    end();
    expect(existsSync(root)).toBe(false);
    expect(env).toEqual({ TMPDIR: '/somewhere' });
  });

  it('is used as it is by a nested run, which leaves it to the run that made it', () => {
    const outer: NodeJS.ProcessEnv = {};
    const endOuter = useTempRoot(outer);
    const nested = { ...outer };
    useTempRoot(nested)();
    expect(nested).toEqual(outer);
    expect(existsSync(outer.TMPDIR!)).toBe(true);
    expect(dirname(outer.TMPDIR!)).toBe(tmpdir());
    endOuter();
    expect(outer).toEqual({});
  });
});
