// The real servers `npm run test:real-servers` runs the contract suite on, each with the
// description its own authors publish, started on a free loopback port in a folder of its own.
// Installed where missing: Debian packages with apt-get (as root), LoopBack's example from npm
// into a cache folder outside the repository (no dependency of the project).
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { copyFileSync, existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));

/** A server as the run starts it. */
export interface RealServer {
  name: string;
  /** What it is, for the report: `Jupyter Server 1.23.3 (Debian python3-jupyter-server)`. */
  title: string;
  /** Why it cannot run here and how to install it; `undefined`: it can. */
  missing(): string | undefined;
  /** Installs what is missing, where this machine allows it; throws with why when it cannot. */
  install(log: (line: string) => void): void;
  /** Starts it in `dir` on `port`; resolves once it answers. */
  start(dir: string, port: number): Promise<Started>;
}

export interface Started {
  child: ChildProcess;
  /** The base URL its description's paths hang from. */
  baseUrl: string;
  /** The description the run is judged against (a file). */
  spec: string;
  /** What the server wrote, for a failure to start. */
  output(): string;
}

/** A server that does not answer within this is reported as not started. */
const START_TIMEOUT_MS = 60_000;

/** The version of LoopBack's todo example the run installs. */
const LOOPBACK_TODO = '@loopback/example-todo@6.0.0';

export const REAL_SERVERS: RealServer[] = [
  {
    name: 'jupyter-server',
    title: 'Jupyter Server (Debian python3-jupyter-server, with python3-ipykernel for a kernel)',
    missing: () =>
      debMissing(['python3-jupyter-server', 'python3-ipykernel']) ??
      (jupyterSpec() === undefined
        ? 'its api.yaml is not in python3-jupyter-server (dpkg -L)'
        : undefined),
    install: (log) => aptInstall(['python3-jupyter-server', 'python3-ipykernel'], log),
    async start(dir, port) {
      const env = {
        ...process.env,
        JUPYTER_RUNTIME_DIR: join(dir, 'runtime'),
        JUPYTER_CONFIG_DIR: join(dir, 'config'),
        JUPYTER_DATA_DIR: join(dir, 'data'),
        HOME: dir,
      };
      mkdirSync(join(dir, 'root'), { recursive: true });
      // Its api.yaml declares no security scheme, so no client of it can send a token: the
      // token is off, and with it the XSRF check that guards cookie sessions of browsers.
      const child = launch(
        '/usr/bin/python3',
        [
          '-m',
          'jupyter_server',
          '--no-browser',
          ...(process.getuid?.() === 0 ? ['--allow-root'] : []),
          '--ip=127.0.0.1',
          `--port=${port}`,
          '--port-retries=0',
          '--ServerApp.token=',
          '--ServerApp.password=',
          '--ServerApp.disable_check_xsrf=True',
          `--ServerApp.root_dir=${join(dir, 'root')}`,
        ],
        { cwd: dir, env },
      );
      const baseUrl = `http://127.0.0.1:${port}`;
      await answering(child, `${baseUrl}/api/status`);
      return { child: child.process, baseUrl, spec: jupyterSpec()!, output: child.output };
    },
  },
  {
    name: 'alertmanager',
    title: 'Prometheus Alertmanager (Debian prometheus-alertmanager)',
    missing: () => debMissing(['prometheus-alertmanager']),
    install: (log) => aptInstall(['prometheus-alertmanager'], log),
    async start(dir, port) {
      const config = join(dir, 'alertmanager.yml');
      // One receiver that sends nothing: the run must not mail anyone.
      writeFileSync(config, 'route:\n  receiver: nobody\nreceivers:\n  - name: nobody\n');
      const child = launch(
        '/usr/bin/prometheus-alertmanager',
        [
          `--config.file=${config}`,
          `--web.listen-address=127.0.0.1:${port}`,
          `--storage.path=${join(dir, 'data')}`,
          // No cluster: no gossip port, no peers.
          '--cluster.listen-address=',
        ],
        { cwd: dir, env: process.env },
      );
      const baseUrl = `http://127.0.0.1:${port}/api/v2`;
      await answering(child, `${baseUrl}/status`);
      return {
        child: child.process,
        baseUrl,
        spec: join(ROOT, 'test/fixtures/real-servers/alertmanager-v0.25.0-openapi.yaml'),
        output: child.output,
      };
    },
  },
  {
    name: 'loopback-todo',
    title: `LoopBack's todo example (npm ${LOOPBACK_TODO}, its served /openapi.json)`,
    missing: () =>
      existsSync(loopbackEntry())
        ? undefined
        : `npm ${LOOPBACK_TODO} is not in ${loopbackCache()} (npm install --prefix ${loopbackCache()} ${LOOPBACK_TODO})`,
    install(log) {
      log(`npm install --prefix ${loopbackCache()} ${LOOPBACK_TODO}`);
      mkdirSync(loopbackCache(), { recursive: true });
      execFileSync(
        'npm',
        [
          'install',
          '--prefix',
          loopbackCache(),
          '--no-save',
          '--no-audit',
          '--no-fund',
          LOOPBACK_TODO,
        ],
        { stdio: ['ignore', 'ignore', 'inherit'] },
      );
    },
    async start(dir, port) {
      // Its in-memory store loads and saves `./data/db.json`: a copy, so each run starts alike.
      const example = join(loopbackCache(), 'node_modules/@loopback/example-todo');
      mkdirSync(join(dir, 'data'), { recursive: true });
      copyFileSync(join(example, 'data/db.json'), join(dir, 'data/db.json'));
      const child = launch(process.execPath, [loopbackEntry()], {
        cwd: dir,
        env: { ...process.env, PORT: String(port), HOST: '127.0.0.1' },
      });
      const baseUrl = `http://127.0.0.1:${port}`;
      await answering(child, `${baseUrl}/openapi.json`);
      const spec = join(dir, 'openapi.json');
      writeFileSync(spec, await (await fetch(`${baseUrl}/openapi.json`)).text());
      return { child: child.process, baseUrl, spec, output: child.output };
    },
  },
];

/** Stops a server: SIGTERM, then SIGKILL after a few seconds. */
export async function stop(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  child.kill('SIGTERM');
  const timer = setTimeout(() => child.kill('SIGKILL'), 5_000);
  await exited;
  clearTimeout(timer);
}

function loopbackCache(): string {
  const cache = process.env.XDG_CACHE_HOME ?? join(homedir(), '.cache');
  return join(cache, 'petstore-kit', 'real-servers', 'loopback');
}

function loopbackEntry(): string {
  return join(loopbackCache(), 'node_modules/@loopback/example-todo/dist/index.js');
}

/** Jupyter Server's own description, as its Debian package ships it. */
function jupyterSpec(): string | undefined {
  try {
    return execFileSync('dpkg', ['-L', 'python3-jupyter-server'], { encoding: 'utf8' })
      .split('\n')
      .find((file) => file.endsWith('/jupyter_server/services/api/api.yaml'));
  } catch {
    return undefined;
  }
}

/** Why the packages are not usable: those not installed, and the command that installs them. */
function debMissing(packages: string[]): string | undefined {
  const absent = packages.filter((name) => {
    try {
      const status = execFileSync('dpkg-query', ['-W', '-f=${Status}', name], {
        encoding: 'utf8',
        stdio: ['ignore', 'pipe', 'ignore'],
      });
      return !status.includes('install ok installed');
    } catch {
      return true;
    }
  });
  return absent.length === 0
    ? undefined
    : `${absent.join(' and ')} not installed (sudo apt-get install -y ${absent.join(' ')})`;
}

function aptInstall(packages: string[], log: (line: string) => void): void {
  if (process.getuid?.() !== 0) throw new Error('not root, so apt-get cannot install it');
  const env = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' };
  const install = () =>
    execFileSync('apt-get', ['install', '-y', '-qq', ...packages], {
      env,
      stdio: ['ignore', 'ignore', 'inherit'],
    });
  log(`apt-get install -y ${packages.join(' ')}`);
  try {
    install();
  } catch {
    // A machine whose package lists are old or empty: read them, then once more.
    execFileSync('apt-get', ['update', '-qq'], { env, stdio: ['ignore', 'ignore', 'inherit'] });
    install();
  }
}

/** A child process, its output kept (the last 64 kB) for a failure to start. */
function launch(
  command: string,
  args: string[],
  options: { cwd: string; env: NodeJS.ProcessEnv },
): { process: ChildProcess; output: () => string } {
  const child = spawn(command, args, { ...options, stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  const keep = (chunk: Buffer) => {
    output = (output + chunk.toString()).slice(-65_536);
  };
  child.stdout?.on('data', keep);
  child.stderr?.on('data', keep);
  return { process: child, output: () => output };
}

/** Resolves once `url` answers (any status); rejects when the child exits or time runs out. */
async function answering(
  child: { process: ChildProcess; output: () => string },
  url: string,
): Promise<void> {
  const deadline = Date.now() + START_TIMEOUT_MS;
  while (Date.now() < deadline) {
    if (child.process.exitCode !== null)
      throw new Error(`it exited (${child.process.exitCode}):\n${child.output().slice(-2000)}`);
    try {
      await fetch(url, { signal: AbortSignal.timeout(2_000) });
      return;
    } catch {
      await new Promise((resolve) => setTimeout(resolve, 250));
    }
  }
  child.process.kill('SIGKILL');
  throw new Error(
    `it did not answer ${url} within ${START_TIMEOUT_MS / 1000} s:\n${child.output().slice(-2000)}`,
  );
}
