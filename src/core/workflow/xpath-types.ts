// What `import xpath from 'xpath'` reads as, for the compiler only (tsconfig's `paths`): the
// package's own types begin with `/// <reference lib="dom" />`, which would bring the DOM's
// types into the whole project and change what `fetch` takes everywhere. Compiled code imports
// the package itself; tsx, which follows `paths`, gets it through this file.
import { createRequire } from 'node:module';

const xpath = createRequire(import.meta.url)('xpath') as {
  select(expression: string, node: unknown): unknown;
};
export default xpath;
