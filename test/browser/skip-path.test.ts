// Where Chromium is found, and whether a run is CI's. What a run without it says and does:
// test/skip-paths.test.ts.
import { chmod, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { findChromium, isCi } from './chromium.js';
import { tempFolder } from '../temp-folders.js';

describe('findChromium', () => {
  it('takes CHROMIUM_PATH first, else looks for chromium and chromium-browser on PATH', async () => {
    const dir = await tempFolder('chromium');
    const fake = join(dir, 'chromium-browser');
    await writeFile(fake, '#!/bin/sh\n');
    await chmod(fake, 0o755);
    expect(findChromium({ CHROMIUM_PATH: fake })).toEqual({ found: true, path: fake });
    expect(findChromium({ CHROMIUM_PATH: join(dir, 'nothing') })).toMatchObject({ found: false });
    const onPath = findChromium({ PATH: dir });
    // Debian's /usr/bin/chromium wins where it is installed.
    expect(onPath).toEqual({ found: true, path: expect.stringMatching(/chromium(-browser)?$/) });
  });

  it('CI counts as set unless empty, false or 0', () => {
    expect([undefined, '', 'false', '0', 'true', '1'].map((CI) => isCi({ CI }))).toEqual([
      false,
      false,
      false,
      false,
      true,
      true,
    ]);
  });
});
