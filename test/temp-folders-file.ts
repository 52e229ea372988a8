// Vitest's setupFiles (vitest.config.ts), run before each test file: when the file ends, after
// its own afterAll hooks (Vitest runs them last registered first), the folders it made outside
// its tests are removed (test/temp-folders.ts).
import { afterAll } from 'vitest';
import { removeFileFolders } from './temp-folders.js';

afterAll(removeFileFolders);
