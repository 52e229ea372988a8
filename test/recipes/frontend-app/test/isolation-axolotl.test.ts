import { isolatedFile } from './isolation.ts';

isolatedFile('Axolotl');
