// The same Arazzo workflows run by `petstore-kit workflow` and by Redocly CLI's `respect`
// against the same servers (issue 49): a correct tasks server, one with a defect each, and the
// mock serving the bundled spec. Prints a Markdown table; not part of `npm test`.
//   npx tsx scripts/respect-compare.ts            (installs @redocly/cli into a cache on first use)
import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, readFile, writeFile } from 'node:fs/promises';
import { homedir, tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';
import { parse, stringify } from 'yaml';
import { startTasksServer, type TasksBehaviour } from '../test/fixtures/workflows/tasks-server.js';
import { loadSpec, startMock } from '../src/index.js';

const run = promisify(execFile);
const REDOCLY_VERSION = '2.77.0';
const KEY = 'compare-key';
const ROOT = resolve(import.meta.dirname, '..');
const FIXTURES = join(ROOT, 'test/fixtures/workflows');

/** Redocly CLI at a pinned version, installed once into a cache outside the project. */
async function redocly(): Promise<string> {
  const folder = join(homedir(), '.cache/petstore-kit/redocly', REDOCLY_VERSION);
  const bin = join(folder, 'node_modules/.bin/redocly');
  if (!existsSync(bin)) {
    await mkdir(folder, { recursive: true });
    await writeFile(join(folder, 'package.json'), '{"private":true}');
    await run('npm', ['install', '--no-audit', '--no-fund', `@redocly/cli@${REDOCLY_VERSION}`], {
      cwd: folder,
    });
  }
  return bin;
}

/**
 * A copy of a workflow document whose operation steps send the credential as a header
 * parameter, which both tools send as written (respect takes credentials only from the
 * document), its source description named by an absolute path.
 */
async function withCredential(
  file: string,
  header: string,
  value: string,
  source: string,
  portable = false,
): Promise<string> {
  const document = parse(await readFile(file, 'utf8')) as {
    sourceDescriptions: { url: string }[];
    workflows: {
      steps: { operationId?: string; operationPath?: string; parameters?: unknown[] }[];
    }[];
  };
  for (const description of document.sourceDescriptions) description.url = source;
  // What respect refuses, written another way: an append (`/tags/-`) as a replaced first item,
  // `$response.body.length > 0` as a JSONPath that selects a first item.
  if (portable) makePortable(document.workflows);
  for (const workflow of document.workflows)
    for (const step of workflow.steps)
      if (step.operationId || step.operationPath)
        step.parameters = [...(step.parameters ?? []), { name: header, in: 'header', value }];
  const folder = await mkdtemp(join(tmpdir(), 'respect-compare-'));
  const out = join(folder, 'flows.arazzo.yaml');
  await writeFile(out, stringify(document));
  // An operationPath names the source's URL: the copy keeps it resolvable.
  return out;
}

/** Criteria as both tools read them: a condition, or a typed expression on a context. */
type Criterion = { condition: string; context?: string; type?: string };

/**
 * What respect refuses, written another way: an append (`/tags/-`) as a replaced first item of
 * a one-item list, `$response.body.length > 0` as a JSONPath that selects a first item.
 */
function makePortable(workflows: { steps: Record<string, unknown>[] }[]): void {
  for (const step of workflows.flatMap((workflow) => workflow.steps)) {
    const body = step.requestBody as
      { payload?: Record<string, unknown>; replacements?: { target: string }[] } | undefined;
    for (const replacement of body?.replacements ?? [])
      if (replacement.target === '/tags/-') {
        replacement.target = '/tags/0';
        if (body?.payload) body.payload.tags = ['placeholder'];
      }
    const criteria = step.successCriteria as Criterion[] | undefined;
    if (criteria)
      step.successCriteria = criteria.flatMap((criterion): Criterion[] =>
        criterion.condition.includes('$response.body.length > 0')
          ? [
              { condition: '$statusCode == 200' },
              { context: '$response.body', condition: '$[0]', type: 'jsonpath' },
            ]
          : [criterion],
      );
    for (const action of (step.onFailure ?? []) as { criteria?: Criterion[] }[])
      if (action.criteria)
        action.criteria = action.criteria.map((criterion) =>
          criterion.condition.includes('.length') ? { condition: '$statusCode == 200' } : criterion,
        );
  }
}

interface Verdict {
  exit: number;
  text: string;
}

async function exitOf(command: string, args: string[]): Promise<Verdict> {
  try {
    const { stdout } = await run(command, args, { cwd: ROOT, maxBuffer: 64 * 1024 * 1024 });
    return { exit: 0, text: stdout };
  } catch (err) {
    const failed = err as { code?: number; stdout?: string; stderr?: string };
    return {
      exit: typeof failed.code === 'number' ? failed.code : -1,
      text: `${failed.stdout ?? ''}${failed.stderr ?? ''}`,
    };
  }
}

const word = (exit: number) => (exit === 0 ? 'pass' : exit === 1 ? 'fail' : `cannot run (${exit})`);

async function main() {
  const bin = await redocly();
  const source = join(FIXTURES, 'tasks.openapi.yaml');
  const flows = join(FIXTURES, 'tasks.arazzo.yaml');
  const documents = {
    '': await withCredential(flows, 'X-Api-Key', KEY, source),
    ' (portable)': await withCredential(flows, 'X-Api-Key', KEY, source, true),
  };
  const cases: { name: string; behaviour: Omit<TasksBehaviour, 'apiKey'> }[] = [
    { name: 'correct server', behaviour: {} },
    { name: 'list misses every task (criterion)', behaviour: { listEmpty: true } },
    { name: 'list lags once (a retry passes)', behaviour: { listLag: 1 } },
    { name: 'create answers another id (value carried wrong)', behaviour: { wrongId: true } },
    {
      name: 'read answers `done` as text (breaks the description)',
      behaviour: { doneAsText: true },
    },
  ];
  const rows: string[] = [];
  for (const [variant, tasks] of Object.entries(documents))
    for (const { name, behaviour } of cases) {
      const verdicts: Verdict[] = [];
      for (const tool of ['petstore-kit', 'respect'] as const) {
        const server = await startTasksServer({ apiKey: KEY, ...behaviour });
        const url = `${server.url}`;
        verdicts.push(
          tool === 'petstore-kit'
            ? await exitOf('node', [
                'dist/cli/bin.js',
                'workflow',
                tasks,
                '--server',
                `tasks=${url}`,
                '--input',
                'title=Buy milk',
              ])
            : await exitOf(bin, [
                'respect',
                tasks,
                '--server',
                `tasks=${url}`,
                '--input',
                'title=Buy milk',
              ]),
        );
        server.server.close();
      }
      rows.push(
        `| tasks${variant}: ${name} | ${word(verdicts[0]!.exit)} | ${word(verdicts[1]!.exit)} |`,
      );
    }
  // The 1.1 document on the bundled spec, against the mock as a server.
  const mock = await startMock({ spec: await loadSpec(), apiKeys: [KEY], port: 0 });
  const categories = await withCredential(
    join(FIXTURES, 'categories.arazzo.yaml'),
    'Authorization',
    `Bearer ${KEY}`,
    join(ROOT, 'spec/openapi.yaml'),
  );
  const ours = await exitOf('node', [
    'dist/cli/bin.js',
    'workflow',
    categories,
    '--base-url',
    mock.url,
  ]);
  const theirs = await exitOf(bin, ['respect', categories, '--server', `petstore=${mock.url}`]);
  rows.push(
    `| categories (Arazzo 1.1) on the mock as a server | ${word(ours.exit)} | ${word(theirs.exit)} |`,
  );
  const inProcess = await exitOf('node', [
    'dist/cli/bin.js',
    'workflow',
    join(FIXTURES, 'categories.arazzo.yaml'),
    '--mock',
    '--api-key',
    KEY,
  ]);
  rows.push(
    `| categories with \`--mock\` (no server) | ${word(inProcess.exit)} | no mock: cannot run |`,
  );
  await mock.close();
  console.log(
    `| case | petstore-kit workflow | redocly respect ${REDOCLY_VERSION} |\n| --- | --- | --- |\n${rows.join('\n')}`,
  );
  if (process.env.VERBOSE) console.log(theirs.text);
}

await main();
