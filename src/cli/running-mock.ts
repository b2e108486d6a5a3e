/**
 * The `trx-rent mock` servers running on this machine, found by other terminals. While it listens
 * on a loopback address each mock writes one record of its own, `mocks/<pid>-<port>.json` in the
 * config directory (mode 0600, next to the profiles): its URL, demo API key, pid and port; it
 * removes that record on exit. Two mocks never share a record, so one cannot overwrite another's.
 *
 * A command with no base URL from a flag, the environment or the profile reads every record
 * ({@link findRunningMocks}); a record whose process is gone or whose port no longer answers is
 * stale: ignored and removed. Exactly one live mock is used, named on stderr
 * (`ConfigService`); two or more are refused with {@link AmbiguousMockError}, which lists them
 * and says how to pick one, so money never goes to a mock the CLI guessed. Nothing here reaches
 * beyond this machine: only a loopback mock is recorded, and the key it holds is the mock's
 * throwaway demo key.
 * @module
 */
import { mkdirSync, readFileSync, readdirSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { connect } from 'node:net';
import { join } from 'node:path';
import { processAlive } from '../internal/process.js';
import { defaultConfigDir } from './config.js';
import { EXIT, CliError } from './errors.js';
import { ENV } from './settings.js';

/** One running mock, as its record says. */
export interface RunningMock {
  url: string;
  apiKey: string;
  /** The mock's process. */
  pid: number;
  /** Its port on 127.0.0.1 (or the loopback host of its URL). */
  port: number;
  /** The record's file (for messages). */
  path: string;
}

/** The folder of the records, for a run's config directory (TRX_RENT_CONFIG_DIR, else the platform's). */
export function runningMocksDir(configDir: string | undefined): string {
  return join(configDir || defaultConfigDir(), 'mocks');
}

/** A record's name: the mock's pid and port, so every running mock has its own. */
const RECORD = /^(\d+)-(\d+)\.json$/;

/**
 * Writes the record of a mock this process serves at `url`; returns what removes it again (the
 * name is this process's and this port's alone, so it removes nothing of another mock's).
 */
export function recordRunningMock(configDir: string | undefined, mock: { url: string; apiKey: string }): () => void {
  const port = portOf(mock.url);
  const dir = runningMocksDir(configDir);
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  const path = join(dir, `${process.pid}-${port}.json`);
  const record = { url: mock.url, api_key: mock.apiKey, pid: process.pid, port, started_at: new Date().toISOString() };
  // Written whole, then renamed into place: a reader never sees half a record (and never removes one as malformed).
  const partial = join(dir, `.${process.pid}-${port}.json.tmp`);
  writeFileSync(partial, `${JSON.stringify(record, undefined, 2)}\n`, { mode: 0o600 });
  renameSync(partial, path);
  return () => rmSync(path, { force: true });
}

/**
 * The live mocks of this config directory, by port. Each record is checked: its process must
 * exist and its port must accept a connection (within `timeoutMs`); a record failing either is
 * stale, ignored and removed, as is one that does not parse.
 */
export async function findRunningMocks(configDir: string | undefined, timeoutMs = 1_000): Promise<RunningMock[]> {
  const dir = runningMocksDir(configDir);
  let names: string[];
  try {
    names = readdirSync(dir).filter((n) => RECORD.test(n));
  } catch {
    return [];
  }
  const found = await Promise.all(
    names.map(async (name): Promise<RunningMock | undefined> => {
      const path = join(dir, name);
      const mock = readRecord(path);
      const live = mock !== undefined && processAlive(mock.pid) && (await answers(mock.url, timeoutMs));
      if (!live) {
        rmSync(path, { force: true });
        return undefined;
      }
      return mock;
    }),
  );
  return found.filter((m): m is RunningMock => m !== undefined).sort((a, b) => a.port - b.port || a.pid - b.pid);
}

/** The one live mock (undefined when none runs); two or more are refused with {@link AmbiguousMockError}. */
export async function theRunningMock(configDir: string | undefined): Promise<RunningMock | undefined> {
  const mocks = await findRunningMocks(configDir);
  if (mocks.length > 1) throw new AmbiguousMockError(mocks);
  return mocks[0];
}

/** Two or more mocks run and nothing says which to use: refused, naming each and how to pick one. */
export class AmbiguousMockError extends CliError {
  /** The running mocks, by port. */
  readonly choices: ReadonlyArray<{ url: string; pid: number }>;
  constructor(mocks: readonly RunningMock[]) {
    const list = mocks.map((m) => `${m.url} (pid ${m.pid})`).join(', ');
    super('AMBIGUOUS_MOCK', `No base URL set, and ${mocks.length} \`trx-rent mock\` servers are running here: ${list}; the CLI does not guess which to use`, {
      exitCode: EXIT.USAGE,
      hint: `pick one with --base-url URL or ${ENV.baseUrl}=URL (e.g. --base-url ${mocks[0]?.url ?? 'URL'}), or stop the others`,
    });
    this.name = 'AmbiguousMockError';
    this.choices = mocks.map((m) => ({ url: m.url, pid: m.pid }));
    this.details = { choices: this.choices };
  }
}

/** How a running mock is named to people: `http://127.0.0.1:8787 (pid 1234)`. */
export function describeRunningMock(mock: Pick<RunningMock, 'url' | 'pid'>): string {
  return `${mock.url} (pid ${mock.pid})`;
}

function readRecord(path: string): RunningMock | undefined {
  try {
    const saved = JSON.parse(readFileSync(path, 'utf8')) as { url?: unknown; api_key?: unknown; pid?: unknown; port?: unknown };
    if (typeof saved.url !== 'string' || typeof saved.api_key !== 'string' || !Number.isSafeInteger(saved.pid) || !Number.isSafeInteger(saved.port))
      return undefined;
    if (portOf(saved.url) !== saved.port) return undefined;
    return { url: saved.url, apiKey: saved.api_key, pid: saved.pid as number, port: saved.port as number, path };
  } catch {
    return undefined;
  }
}

/** The port of an http URL (its default when none is written). */
function portOf(url: string): number {
  const parsed = new URL(url);
  return parsed.port ? Number(parsed.port) : parsed.protocol === 'https:' ? 443 : 80;
}

/** Whether the URL's host and port accept a TCP connection within `timeoutMs` (a mock whose process lives but no longer listens is stale). */
function answers(url: string, timeoutMs: number): Promise<boolean> {
  return new Promise((resolve) => {
    let host: string;
    try {
      host = new URL(url).hostname.replace(/^\[|\]$/g, '');
    } catch {
      resolve(false);
      return;
    }
    const socket = connect({ host, port: portOf(url) });
    const done = (ok: boolean) => {
      clearTimeout(timer);
      socket.destroy();
      resolve(ok);
    };
    const timer = setTimeout(() => done(false), timeoutMs);
    socket.once('connect', () => done(true));
    socket.once('error', () => done(false));
  });
}
