// `npm run test:real-servers`: the contract suite run, as a CI job runs it, on real servers
// with the descriptions their authors publish (test/real-servers/servers.ts): Jupyter Server,
// Prometheus Alertmanager and LoopBack's todo example, each on a free loopback port. Every
// finding (a root cause: the failing request and what was wrong) is held against the committed
// table test/real-servers/findings.json, where someone who read its evidence judged it a true
// defect of the server, a defect of its description, or a false alarm of the suite. A false
// alarm, or a finding the table does not hold, fails the run. Components that are missing
// are installed (apt-get as root, npm into a cache folder); where they cannot be, the run says
// so loudly and skips them, or, with CI set, fails.
//
//   npm run test:real-servers                       # all three
//   npm run test:real-servers -- --only alertmanager
//   npm run test:real-servers -- --keep-reports DIR # each run's text and JSON report kept there
import { spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import {
  checkTable,
  compare,
  countsOf,
  findingsOf,
  precision,
  VERDICTS,
  type Comparison,
  type Counts,
  type JsonReport,
} from '../test/real-servers/findings.js';
import { REAL_SERVERS, stop, type RealServer } from '../test/real-servers/servers.js';
import { freePort } from '../test/free-port.js';

const ROOT = fileURLToPath(new URL('../', import.meta.url));
const TABLE = join(ROOT, 'test/real-servers/findings.json');
/** The seed of every run: the same generated cases each time, so the table stays comparable. */
const SEED = 1;
/** One server's contract run past this is killed and fails the run. */
const RUN_TIMEOUT_MS = 150_000;

interface ServerResult {
  server: RealServer;
  /** Seconds: start, contract run, stop. */
  seconds?: { start: number; run: number };
  exitCode?: number;
  comparison?: Comparison;
  rules?: { failed: number; unjudged: number; passed: number; skipped: number };
  problem?: string;
  skipped?: string;
}

async function main(): Promise<number> {
  const { values } = parseArgs({
    options: { only: { type: 'string' }, 'keep-reports': { type: 'string' } },
  });
  const only = values.only?.split(',').filter(Boolean);
  const ci = Boolean(process.env.CI) && process.env.CI !== 'false';
  const table = checkTable(JSON.parse(readFileSync(TABLE, 'utf8')));
  const servers = REAL_SERVERS.filter((server) => !only || only.includes(server.name));
  const results: ServerResult[] = [];
  for (const server of servers)
    results.push(await runOn(server, table[server.name] ?? [], values['keep-reports']));

  console.log('\n== real servers: findings against test/real-servers/findings.json');
  let failed = false;
  const all = countsOf([]);
  for (const result of results) {
    const { server } = result;
    if (result.skipped !== undefined) {
      console.log(`SKIPPED ${server.name}: ${result.skipped}`);
      if (ci) failed = true;
      continue;
    }
    if (result.problem !== undefined || !result.comparison) {
      console.log(`FAILED  ${server.name}: ${result.problem ?? 'no report'}`);
      failed = true;
      continue;
    }
    const { comparison, rules, seconds } = result;
    const counts = countsOf(comparison.known);
    for (const verdict of VERDICTS) {
      all[verdict].findings += counts[verdict].findings;
      all[verdict].rules += counts[verdict].rules;
    }
    console.log(
      `${server.name}: exit ${result.exitCode}, rules ${rules!.passed} passed, ${rules!.failed} failed, ${rules!.unjudged} not judged, ${rules!.skipped} skipped; start ${seconds!.start.toFixed(1)} s, run ${seconds!.run.toFixed(1)} s`,
    );
    console.log(`  ${countsLine(counts)}`);
    for (const { finding, row } of comparison.known)
      console.log(
        `  ${row.verdict.padEnd(18)} ${finding.finding} (${finding.rules.length} rules): ${row.reason}`,
      );
    for (const { finding, row } of comparison.known.filter(
      ({ row }) => row.verdict === 'false alarm',
    )) {
      console.log(`  FALSE ALARM: ${finding.finding}: ${row.reason}`);
      failed = true;
    }
    for (const finding of comparison.unknown) {
      console.log(
        `  NOT IN THE TABLE: ${finding.finding} (${finding.rules.length} rules, the first: ${finding.rules[0]}); judge it and add it to test/real-servers/findings.json`,
      );
      failed = true;
    }
    for (const row of comparison.unseen)
      console.log(`  not found this run (${row.verdict}): ${row.finding}`);
  }
  console.log(`\nall servers: ${countsLine(all)}`);
  console.log(failed ? 'real servers: FAILED' : 'real servers: passed');
  return failed ? 1 : 0;
}

async function runOn(
  server: RealServer,
  rows: Parameters<typeof compare>[1],
  keep: string | undefined,
): Promise<ServerResult> {
  console.log(`\n== ${server.name}: ${server.title}`);
  let missing = server.missing();
  if (missing !== undefined) {
    try {
      server.install((line) => console.log(`installing: ${line}`));
      missing = server.missing();
    } catch (err) {
      missing = `${missing}; installing it failed: ${err instanceof Error ? err.message.split('\n')[0] : String(err)}`;
    }
  }
  if (missing !== undefined) {
    console.log(`!! SKIPPED ${server.name}: ${missing}`);
    return { server, skipped: missing };
  }
  const dir = mkdtempSync(join(tmpdir(), `real-servers-${server.name}-`));
  const began = performance.now();
  let started;
  try {
    started = await server.start(dir, await freePort());
  } catch (err) {
    rmSync(dir, { recursive: true, force: true });
    return {
      server,
      problem: `it did not start: ${err instanceof Error ? err.message : String(err)}`,
    };
  }
  const startSeconds = (performance.now() - began) / 1000;
  const json = join(dir, 'contract.json');
  const ran = performance.now();
  try {
    const { code, stdout } = await contract(started.spec, started.baseUrl, json);
    const runSeconds = (performance.now() - ran) / 1000;
    if (keep) {
      mkdirSync(keep, { recursive: true });
      writeFileSync(join(keep, `${server.name}.txt`), stdout);
      writeFileSync(join(keep, `${server.name}.json`), readFileSync(json));
    }
    const report = JSON.parse(readFileSync(json, 'utf8')) as JsonReport;
    const count = (state: string) => report.rules.filter((rule) => rule.state === state).length;
    return {
      server,
      exitCode: code,
      seconds: { start: startSeconds, run: runSeconds },
      comparison: compare(findingsOf(report), rows),
      rules: {
        passed: count('passed'),
        failed: count('failed'),
        unjudged: count('unjudged'),
        skipped: count('skipped'),
      },
    };
  } catch (err) {
    return {
      server,
      problem: `${err instanceof Error ? err.message : String(err)}\n${started.output().slice(-1500)}`,
    };
  } finally {
    await stop(started.child);
    rmSync(dir, { recursive: true, force: true });
  }
}

/** `petstore-kit contract` as a CI job runs it: its text report shown, its JSON kept for the table. */
function contract(
  spec: string,
  baseUrl: string,
  json: string,
): Promise<{ code: number; stdout: string }> {
  const args = [
    join(ROOT, 'dist/cli/bin.js'),
    'contract',
    '--spec',
    spec,
    '--seed',
    String(SEED),
    '--reporter',
    'json',
    '--output',
    json,
  ];
  console.log(`$ BASE_URL=${baseUrl} petstore-kit contract --spec ${spec} --seed ${SEED}`);
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, args, {
      env: { ...process.env, BASE_URL: baseUrl, CONTRACT_RULE_TIMEOUT: '30000' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    child.stdout.on('data', (chunk: Buffer) => {
      stdout += chunk.toString();
      process.stdout.write(chunk);
    });
    child.stderr.on('data', (chunk: Buffer) => process.stderr.write(chunk));
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`the contract run did not end within ${RUN_TIMEOUT_MS / 1000} s`));
    }, RUN_TIMEOUT_MS);
    child.once('error', reject);
    child.once('exit', (code) => {
      clearTimeout(timer);
      if (code === null || code > 2) reject(new Error(`the contract run ended with ${code}`));
      else resolve({ code, stdout });
    });
  });
}

function countsLine(counts: Counts): string {
  const share = (by: 'findings' | 'rules') => {
    const value = precision(counts, by);
    return value === undefined ? 'n/a' : `${value.toFixed(0)}%`;
  };
  return `root causes: ${VERDICTS.map((verdict) => `${counts[verdict].findings} ${verdict}`).join(', ')}; precision by root cause ${share('findings')} (by failed rule ${share('rules')}: ${VERDICTS.map((verdict) => `${counts[verdict].rules} ${verdict}`).join(', ')})`;
}

process.exitCode = await main();
