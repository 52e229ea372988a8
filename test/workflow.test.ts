// `petstore-kit workflow`: Arazzo workflows run against a server started here and against the
// mock in the process, failing on servers with one defect each, and refusing a document that
// names what does not exist with its line and a hint.
import { readdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { Server } from 'node:http';
import { afterAll, describe, expect, it } from 'vitest';
import { categoriesServer } from './fixtures/categories-server.js';
import { startTasksServer, type TasksBehaviour } from './fixtures/workflows/tasks-server.js';
import { serveOnFreePort } from './contract-helpers.js';
import { KEY, runCli } from './helpers.js';
import { tempFolder } from './temp-folders.js';

const TASKS = 'test/fixtures/workflows/tasks.arazzo.yaml';
const CATEGORIES = 'test/fixtures/workflows/categories.arazzo.yaml';
const servers: Server[] = [];

afterAll(() => {
  for (const server of servers) server.close();
});

async function tasksServer(behaviour: Omit<TasksBehaviour, 'apiKey'> = {}) {
  const started = await startTasksServer({ apiKey: KEY, ...behaviour });
  servers.push(started.server);
  return started;
}

async function runTasks(url: string, ...more: string[]) {
  return runCli(
    'workflow',
    TASKS,
    '--base-url',
    url,
    '--api-key',
    KEY,
    '--input',
    'title=Buy milk',
    ...more,
  );
}

interface JsonReport {
  workflows: {
    workflowId: string;
    outcome: string;
    reason?: string;
    outputs: Record<string, unknown>;
    steps: {
      stepId: string;
      attempt: number;
      passed: boolean;
      action: string;
      criteria: { text: string; passed: boolean }[];
      breaches: { answer: string[] };
      outputs: Record<string, unknown>;
      response?: { status: number };
      request?: { url: string; headers: Record<string, string> };
      called?: JsonReport['workflows'][number];
    }[];
  }[];
}

function json(out: string): JsonReport {
  return JSON.parse(out) as JsonReport;
}

describe('petstore-kit workflow against a server', () => {
  it('passes every workflow on a correct server, carrying ids from one step to the next', async () => {
    const { url, requests } = await tasksServer();
    const { out, code } = await runTasks(url);
    expect(code).toBe(0);
    expect(out).toContain('PASS task-lifecycle');
    expect(out).toContain('carries: id = 1, location = "/api/tasks/1"');
    expect(out).toContain('3 workflows: 3 passed, 0 failed');
    // The id the create gave went into the read's and the delete's path; the component parameter into the list's query.
    expect(requests.slice(0, 5)).toEqual([
      'POST /api/tasks',
      'GET /api/tasks/1',
      'GET /api/tasks?limit=50',
      'DELETE /api/tasks/1',
      'GET /api/tasks/1',
    ]);
  });

  it('reports per step the request, the answer, the criteria and the values carried, in JSON', async () => {
    const { url } = await tasksServer();
    const { out, code } = await runTasks(url, '--format', 'json', '--workflow', 'task-lifecycle');
    expect(code).toBe(0);
    const [lifecycle] = json(out).workflows;
    expect(lifecycle?.outputs).toEqual({ taskId: 1, title: 'Buy milk' });
    const create = lifecycle?.steps[0];
    expect(create?.request?.url).toBe(`${url}/tasks`);
    // The credential is sent, and masked in the report.
    expect(create?.request?.headers['x-api-key']).toBe('***');
    expect(create?.response?.status).toBe(201);
    expect(create?.criteria).toEqual([
      { text: '$statusCode == 201', passed: true },
      { text: 'regex ^/api/tasks/\\d+$ on $response.header.Location', passed: true },
    ]);
    expect(create?.outputs).toEqual({ id: 1, location: '/api/tasks/1' });
  });

  it('fails when a step’s criterion does not hold, after the retries its failure action allows', async () => {
    const { url, requests } = await tasksServer({ listEmpty: true });
    const { out, code } = await runTasks(url, '--format', 'json', '--workflow', 'task-lifecycle');
    expect(code).toBe(1);
    const [lifecycle] = json(out).workflows;
    expect(lifecycle?.outcome).toBe('failed');
    expect(lifecycle?.reason).toMatch(
      /^step list failed after 3 retries: jsonpath \$\[\?@\.title == 'Buy milk'\]/,
    );
    expect(lifecycle?.steps.map((step) => `${step.stepId}#${step.attempt}`)).toEqual([
      'create#1',
      'read#1',
      'list#1',
      'list#2',
      'list#3',
      'list#4',
    ]);
    expect(requests.filter((line) => line.startsWith('GET /api/tasks?'))).toHaveLength(4);
  });

  it('passes when a retry finds what a lagging list missed', async () => {
    const { url } = await tasksServer({ listLag: 2 });
    const { out, code } = await runTasks(url, '--format', 'json', '--workflow', 'task-lifecycle');
    expect(code).toBe(0);
    const steps = json(out).workflows[0]?.steps ?? [];
    expect(
      steps.filter((step) => step.stepId === 'list').map((step) => [step.passed, step.action]),
    ).toEqual([
      [false, 'retry in 0.01 s (tryAgain)'],
      [false, 'retry in 0.01 s (tryAgain)'],
      [true, 'next'],
    ]);
  });

  it('fails when the value a step carries on is wrong', async () => {
    const { url } = await tasksServer({ wrongId: true });
    const { out, code } = await runTasks(url, '--workflow', 'task-lifecycle');
    expect(code).toBe(1);
    expect(out).toContain('carries: id = 101');
    expect(out).toContain('GET ' + url + '/tasks/101');
    expect(out).toMatch(/why: step read failed: \$statusCode == 200 && .*\$statusCode is 404/);
  });

  it('fails when an answer breaks the description, though every criterion holds', async () => {
    const { url } = await tasksServer({ doneAsText: true });
    const { out, code } = await runTasks(url, '--format', 'json', '--workflow', 'task-lifecycle');
    expect(code).toBe(1);
    const [lifecycle] = json(out).workflows;
    expect(lifecycle?.reason).toBe('the answers of read break the description');
    const read = lifecycle?.steps.find((step) => step.stepId === 'read');
    expect(read?.criteria.every((criterion) => criterion.passed)).toBe(true);
    expect(read?.breaches.answer.join()).toMatch(/done/);
  });

  it('follows gotos: makes a task when the list is empty, then lists again', async () => {
    const { url } = await tasksServer();
    const { out, code } = await runTasks(url, '--format', 'json', '--workflow', 'find-or-create');
    expect(code).toBe(0);
    const [workflow] = json(out).workflows;
    expect(workflow?.steps.map((step) => `${step.stepId}: ${step.action}`)).toEqual([
      'look: goto step make (missing)',
      'make: goto step look (again)',
      'look: end (found)',
    ]);
    expect(workflow?.outputs).toEqual({ count: 1 });
  });

  it('runs a workflow that calls another, with the called one’s outputs', async () => {
    const { url } = await tasksServer();
    const { out, code } = await runTasks(url, '--format', 'json', '--workflow', 'two-tasks');
    expect(code).toBe(0);
    const [workflow] = json(out).workflows;
    expect(workflow?.outputs).toEqual({ first: 1, second: 2 });
    expect(workflow?.steps[0]?.called?.workflowId).toBe('task-lifecycle');
    expect(workflow?.steps[1]?.called?.steps[0]?.outputs).toEqual({
      id: 2,
      location: '/api/tasks/2',
    });
  });

  it('writes JUnit: a suite per workflow, a case per step run', async () => {
    const { url } = await tasksServer({ doneAsText: true });
    const folder = await tempFolder('workflow-junit');
    const file = join(folder, 'report.xml');
    const { out, code } = await runTasks(
      url,
      '--format',
      'junit',
      '--output',
      file,
      '--workflow',
      'task-lifecycle',
    );
    expect(code).toBe(1);
    expect(out).toBe('1 workflow: 0 passed, 1 failed\n');
    const xml = await readFile(file, 'utf8');
    expect(xml).toContain('<testsuite name="task-lifecycle"');
    expect(xml).toMatch(
      /<testcase classname="task-lifecycle" name="read"[^>]*><failure message="[^"]*done/,
    );
  });

  it('runs the bundled categories spec’s 1.1 workflow (selectors, typed criteria) on a server of it', async () => {
    const served = await serveOnFreePort(categoriesServer({ apiKey: KEY }));
    servers.push(served.server);
    const { out, code } = await runCli(
      'workflow',
      CATEGORIES,
      '--server',
      `petstore=${served.url}`,
      '-k',
      KEY,
      '-f',
      'json',
    );
    expect(code).toBe(0);
    expect(json(out).workflows[0]?.outputs).toEqual({ id: 1, newest: 1 });
  });
});

describe('petstore-kit workflow --mock', () => {
  it('runs the same workflows on the mock of the description, in the process', async () => {
    const { out, code } = await runCli(
      'workflow',
      TASKS,
      '--mock',
      '--input',
      'title=Buy milk',
      '-f',
      'json',
    );
    expect(code).toBe(0);
    const reports = json(out).workflows;
    expect(reports.map((report) => report.outcome)).toEqual(['passed', 'passed', 'passed']);
    // The mock's own records are there too: the id carried is the one it gave.
    const id = reports[0]?.outputs.taskId;
    expect(reports[0]?.steps[1]?.request?.url).toBe(`http://tasks.mock/api/tasks/${String(id)}`);
  });

  it('runs the bundled categories spec’s workflow on its mock', async () => {
    const { out, code } = await runCli('workflow', CATEGORIES, '--mock', '-f', 'json');
    expect(code).toBe(0);
    const [report] = json(out).workflows;
    expect(report?.outputs.id).toBe(report?.outputs.newest);
  });

  it('reads a source description from a URL, and leaves nothing of what it downloaded', async () => {
    const text = await readFile('test/fixtures/workflows/tasks.openapi.yaml');
    const served = await serveOnFreePort((_req, res) => res.end(text), { path: '' });
    const file = join(await tempFolder('workflow-url'), 'flows.arazzo.yaml');
    await writeFile(
      file,
      `arazzo: 1.0.1
info: { title: t, version: '1' }
sourceDescriptions: [{ name: tasks, url: '${served.url}/tasks.openapi.yaml' }]
workflows:
  - workflowId: create
    steps:
      - stepId: create
        operationId: createTask
        requestBody: { payload: { title: Walk } }
        successCriteria:
          - condition: $statusCode == 201
`,
    );
    // The download's folder is made in the system's temporary folder: this test's, for now.
    const downloads = await tempFolder('workflow-downloads');
    const systemTemp = process.env.TMPDIR;
    process.env.TMPDIR = downloads;
    try {
      const { out, err, code } = await runCli('workflow', file, '--mock');
      expect(code, err).toBe(0);
      expect(out).toContain('1 workflow: 1 passed, 0 failed');
    } finally {
      if (systemTemp === undefined) delete process.env.TMPDIR;
      else process.env.TMPDIR = systemTemp;
      await served.close();
    }
    expect(await readdir(downloads)).toEqual([]);
  });

  it('names what the mock lacks when a workflow written for the real API fails on it', async () => {
    const folder = await tempFolder('workflow-mock');
    const file = join(folder, 'flows.arazzo.yaml');
    const spec = join(process.cwd(), 'test/fixtures/workflows/tasks.openapi.yaml');
    await writeFile(
      file,
      `arazzo: 1.0.1
info: { title: t, version: '1' }
sourceDescriptions: [{ name: tasks, url: ${spec} }]
workflows:
  - workflowId: done-by-default
    steps:
      - stepId: create
        operationId: createTask
        requestBody: { payload: { title: Walk } }
        successCriteria:
          - condition: $statusCode == 201 && $response.body#/done == true
`,
    );
    const { err, code } = await runCli('workflow', file, '--mock');
    expect(code).toBe(1);
    expect(err).toContain('what the mock lacks for these workflows:');
    expect(err).toContain(
      'done-by-default/create: the mock answered 201 to createTask (POST /tasks), where the workflow asks $statusCode == 201 && $response.body#/done == true',
    );
  });
});

describe('petstore-kit workflow from createCli', () => {
  it('runs when the caller gives no exit-code callback', async () => {
    const { createCli } = await import('../src/cli/cli.js');
    const { Writable } = await import('node:stream');
    let out = '';
    const sink = new Writable({
      write(chunk: Buffer, _encoding, done) {
        out += chunk.toString();
        done();
      },
    });
    await createCli({ stdout: sink, stderr: sink }).parseAsync([
      'node',
      'petstore-kit',
      'workflow',
      CATEGORIES,
      '--mock',
    ]);
    expect(out).toContain('1 workflow: 1 passed, 0 failed');
  });
});

describe('petstore-kit workflow refuses a document it cannot run', () => {
  async function document(text: string): Promise<string> {
    const folder = await tempFolder('workflow-doc');
    const file = join(folder, 'flows.arazzo.yaml');
    const spec = join(process.cwd(), 'test/fixtures/workflows/tasks.openapi.yaml');
    await writeFile(file, text.replace('SPEC', spec));
    return file;
  }
  const head = `arazzo: 1.0.1
info:
  title: t
  version: '1'
sourceDescriptions:
  - name: tasks
    url: SPEC
workflows:
  - workflowId: w
    steps:
`;

  it('names an operation that does not exist with its line and the nearest one', async () => {
    const file = await document(`${head}      - stepId: read
        operationId: getTsk
`);
    const { err, code } = await runCli('workflow', file, '--mock');
    expect(code).toBe(2);
    expect(err).toBe(
      `petstore-kit workflow: cannot run: ${file}:12: operationId "getTsk" is not an operation of tasks (did you mean "getTask"?)\n`,
    );
  });

  it('names an operationPath that points nowhere, a step and an expression that do not exist', async () => {
    const file = await document(`${head}      - stepId: read
        operationPath: '{$sourceDescriptions.tasks.url}#/paths/~1task/get'
        parameters:
          - name: taskId
            in: path
            value: $steps.craete.outputs.id
        successCriteria:
          - condition: $statusCode = 200
`);
    const { err, code } = await runCli('workflow', file, '--mock');
    expect(code).toBe(2);
    const lines = err.trim().split('\n');
    expect(lines[0]).toBe(
      `petstore-kit workflow: cannot run: ${file}:12: operationPath "{$sourceDescriptions.tasks.url}#/paths/~1task/get" points at no operation of tasks (did you mean "#/paths/~1tasks/get"?)`,
    );
    expect(lines[1]).toBe(
      `${file}:16: $steps.craete.outputs.id names no step of this workflow (it has "read")`,
    );
    expect(lines[2]).toMatch(
      new RegExp(`^${file}:18: the condition "\\$statusCode = 200" has "="`),
    );
  });

  it('refuses what its JSON Schema refuses, with the line', async () => {
    const file = await document(`${head}      - stepId: read
        operationId: getTask
        onSucess: []
`);
    const { err, code } = await runCli('workflow', file, '--mock');
    expect(code).toBe(2);
    expect(err).toContain(
      `${file}:13: /workflows/0/steps/0 has "onSucess", which Arazzo does not define there (extensions start with x-)`,
    );
  });

  it('refuses a workflow without an input it requires, in one line', async () => {
    const { err, code } = await runCli(
      'workflow',
      TASKS,
      '--mock',
      '--workflow',
      'task-lifecycle',
      '-f',
      'json',
    );
    expect(code).toBe(2);
    expect(err).toBe('1 workflow: 0 passed, 0 failed, 1 could not run\n');
  });

  it('refuses a workflow the document does not have', async () => {
    const { err, code } = await runCli('workflow', TASKS, '--mock', '--workflow', 'nope');
    expect(code).toBe(2);
    expect(err).toBe(
      'petstore-kit workflow: cannot run: the document has no workflow "nope" (it has: task-lifecycle, two-tasks, find-or-create)\n',
    );
  });
});
