/**
 * One lock per real journal file, across processes (Node only; its modules are handed in by
 * `file.ts`, which loads them lazily). The lock file `<journal>.lock` is created atomically WITH
 * its owner: the owner's JSON (pid, host) is written to a private temporary file first and then
 * hard-linked to the lock's name, so no one ever sees an empty or half-written lock. A lock whose
 * owner is a dead process of this host is broken under a second lock (`<lock>.break`), and only
 * if it still names that owner, so two processes breaking one stale lock cannot both win.
 * @module
 */
import { lockedError } from './errors.js';

type Fs = typeof import('node:fs');

/** What a lock file says of its owner. */
interface Owner {
  pid: number;
  host: string;
  at: number;
}

/** Lock files this process holds (a second holder inside the process is refused too). */
const heldHere = new Set<string>();

/** The Node modules the lock uses. */
export interface LockEnv {
  fs: Fs;
  host: string;
  randomHex: () => string;
  alive: (pid: number) => boolean;
}

function readOwner(env: LockEnv, file: string): Owner | undefined | 'gone' {
  let text: string;
  try {
    const fd = env.fs.openSync(file, env.fs.constants.O_RDONLY | (env.fs.constants.O_NOFOLLOW ?? 0));
    try {
      text = env.fs.readFileSync(fd, 'utf8');
    } finally {
      env.fs.closeSync(fd);
    }
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return 'gone';
    return undefined;
  }
  try {
    const owner = JSON.parse(text) as Owner;
    return Number.isSafeInteger(owner?.pid) && typeof owner.host === 'string' ? owner : undefined;
  } catch {
    return undefined;
  }
}

/** Create `file` holding this process's owner record, atomically; false when it exists. */
function create(env: LockEnv, file: string): boolean {
  const { fs } = env;
  const temp = `${file}.${process.pid}.${env.randomHex()}.tmp`;
  const fd = fs.openSync(temp, 'wx', 0o600);
  try {
    fs.writeSync(fd, JSON.stringify({ pid: process.pid, host: env.host, at: Date.now() } satisfies Owner));
    fs.fsyncSync(fd);
  } finally {
    fs.closeSync(fd);
  }
  try {
    fs.linkSync(temp, file);
    return true;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'EEXIST') return false;
    throw error;
  } finally {
    fs.unlinkSync(temp);
  }
}

function stale(env: LockEnv, owner: Owner, file: string): boolean {
  if (owner.host !== env.host) return false; // another host's process cannot be checked from here
  if (owner.pid === process.pid) return !heldHere.has(file);
  return !env.alive(owner.pid);
}

/** Break `file` if it still names `owner` (a dead process), under `<file>.break`. */
function breakStale(env: LockEnv, file: string, owner: Owner): void {
  const breaker = `${file}.break`;
  if (!create(env, breaker)) {
    const other = readOwner(env, breaker);
    // A breaker that died mid-break is itself stale.
    if (other && other !== 'gone' && stale(env, other, breaker)) env.fs.rmSync(breaker, { force: true });
    return;
  }
  try {
    const now = readOwner(env, file);
    if (now && now !== 'gone' && now.pid === owner.pid && now.host === owner.host && now.at === owner.at) env.fs.rmSync(file, { force: true });
  } finally {
    env.fs.rmSync(breaker, { force: true });
  }
}

/**
 * Try once to take the lock `file`: true when taken; else the live holder (undefined: unreadable),
 * or `busy` when it changed hands under every attempt (others taking and letting go quickly).
 */
export function tryLock(env: LockEnv, file: string): { taken: true } | { taken: false; holder: Owner | undefined; busy?: true } {
  if (heldHere.has(file)) {
    return { taken: false, holder: { pid: process.pid, host: env.host, at: 0 } };
  }
  for (let attempt = 0; attempt < 3; attempt++) {
    if (create(env, file)) {
      heldHere.add(file);
      return { taken: true };
    }
    const owner = readOwner(env, file);
    if (owner === 'gone') continue;
    if (owner === undefined) return { taken: false, holder: undefined };
    if (!stale(env, owner, file)) return { taken: false, holder: owner };
    breakStale(env, file, owner);
  }
  return { taken: false, holder: undefined, busy: true };
}

/** Take the lock, waiting up to `waitMs` (polling) for a live holder to let go; JOURNAL_LOCKED after. */
export async function lock(env: LockEnv, file: string, journal: string, waitMs: number, signal?: AbortSignal): Promise<void> {
  const until = Date.now() + waitMs;
  for (let pause = 2; ; pause = Math.min(pause * 2, 50)) {
    const got = tryLock(env, file);
    if (got.taken) return;
    if (Date.now() >= until || (got.holder === undefined && !got.busy)) throw lockedError(journal, got.holder, file);
    if (signal?.aborted) throw signal.reason;
    await new Promise((resolve) => setTimeout(resolve, pause));
  }
}

/** Let go of the lock `file` (only this process's own). */
export function unlock(env: LockEnv, file: string): void {
  if (!heldHere.delete(file)) return;
  const owner = readOwner(env, file);
  if (owner && owner !== 'gone' && owner.pid === process.pid && owner.host === env.host) env.fs.rmSync(file, { force: true });
}
