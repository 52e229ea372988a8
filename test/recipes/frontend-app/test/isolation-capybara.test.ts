import { isolatedFile } from './isolation.ts';

isolatedFile('Capybara');
