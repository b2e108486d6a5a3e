/**
 * Journals as JSON-lines files (Node only; its modules load when a journal is first opened, so a
 * browser bundle of the core never resolves `fs`). One record per line, appended with O_APPEND
 * and fsync'd before the append resolves (appends queued meanwhile share one write and one
 * fsync), mode 0600, never through a symlink, never a file with a second name, never another
 * user's. Readers take what any writer appended since their last read; every write is made
 * under the lock (`file-lock.ts`). A line cut short by a crash (the file's unterminated end, seen
 * by a lock holder with no write of its own in flight) is cut off and reported; a damaged line
 * anywhere else is JOURNAL_CORRUPT.
 * @module
 */
import { nodeModule } from '../internal/node-module.js';
import { corruptError, unsafeError } from './errors.js';
import { type LockEnv, lock, tryLock, unlock } from './file-lock.js';
import { lockedError } from './errors.js';
import type { Journal, JournalNotice, JournalRecord, Store, StoreOptions } from './types.js';

type Fs = typeof import('node:fs');
type Path = typeof import('node:path');

interface Env extends LockEnv {
  path: Path;
  sha256: (text: string) => string;
}

let loaded: Promise<Env> | undefined;
function env(): Promise<Env> {
  loaded ??= Promise.all([
    nodeModule<Fs>('node:fs'),
    nodeModule<Path>('node:path'),
    nodeModule<typeof import('node:crypto')>('node:crypto'),
    nodeModule<typeof import('node:os')>('node:os'),
    import('../internal/process.js'),
  ]).then(([fs, path, crypto, os, proc]) => ({
    fs,
    path,
    host: os.hostname(),
    randomHex: () => crypto.randomBytes(8).toString('hex'),
    sha256: (text: string) => crypto.createHash('sha256').update(text).digest('hex'),
    alive: proc.processAlive,
  }));
  return loaded;
}

const uid = (): number | undefined => (typeof process.getuid === 'function' ? process.getuid() : undefined);

/** How long an exclusive section waits for another holder by default, ms. */
const DEFAULT_WAIT_MS = 30_000;

/** A journal in one JSON-lines file. Open it with {@link openJournalFile}. */
export class FileJournal<R extends JournalRecord = JournalRecord> implements Journal<R> {
  readonly name: string;
  /** The real path (its folder's symlinks resolved). */
  readonly path: string;
  readonly #env: Env;
  readonly #lockFile: string;
  readonly #onNotice: (notice: JournalNotice) => void;
  #fd: number | undefined;
  /** Bytes read into records (whole lines only) and their count. */
  #offset = 0;
  #lines = 0;
  #locked = 0;
  #holding = false;
  #queue: { text: string; done: (error?: unknown) => void }[] = [];
  #flushing: Promise<void> | undefined;
  /** In-process turn for exclusive sections. */
  #turn: Promise<void> = Promise.resolve();

  private constructor(e: Env, path: string, fd: number, onNotice: (notice: JournalNotice) => void) {
    this.#env = e;
    this.path = path;
    this.name = path;
    this.#fd = fd;
    this.#lockFile = `${path}.lock`;
    this.#onNotice = onNotice;
  }

  /** Open (create, 0600) the journal file at `path`: refused when it is a symlink, has a second name or is another user's. */
  static async open<R extends JournalRecord>(path: string, options: StoreOptions = {}): Promise<FileJournal<R>> {
    const e = await env();
    const { fs } = e;
    const dir = e.path.dirname(e.path.resolve(path));
    if (!fs.existsSync(dir)) throw unsafeError(path, `its folder ${dir} does not exist`);
    const real = e.path.join(fs.realpathSync(dir), e.path.basename(path));
    try {
      const st = fs.lstatSync(real);
      if (st.isSymbolicLink()) throw unsafeError(path, 'it is a symbolic link (journals are never followed through links)');
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
    }
    const { O_RDWR, O_APPEND, O_CREAT, O_NOFOLLOW } = fs.constants;
    let fd: number;
    try {
      fd = fs.openSync(real, O_RDWR | O_APPEND | O_CREAT | (O_NOFOLLOW ?? 0), 0o600);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ELOOP') throw unsafeError(path, 'it is a symbolic link');
      throw error;
    }
    try {
      const st = fs.fstatSync(fd);
      if (!st.isFile()) throw unsafeError(path, 'it is not a regular file');
      // A second name (hard link) would give the same file a second lock.
      if (st.nlink > 1) throw unsafeError(path, `the file has ${st.nlink} names (hard links); a journal must have one`);
      const me = uid();
      if (me !== undefined && st.uid !== me) throw unsafeError(path, `it belongs to user ${st.uid}, not to this user (${me})`);
    } catch (error) {
      fs.closeSync(fd);
      throw error;
    }
    const onNotice = options.onNotice ?? ((n: JournalNotice) => process.emitWarning(`${n.journal}: ${n.message}`, 'TrxRentJournal'));
    return new FileJournal<R>(e, real, fd, onNotice);
  }

  #fdOrThrow(): number {
    if (this.#fd === undefined) throw unsafeError(this.path, 'the journal is closed');
    return this.#fd;
  }

  async read(): Promise<R[]> {
    return this.#readSync();
  }

  /** Whole lines appended since the last read; an unterminated end waits, or is cut off when this instance holds the lock. */
  #readSync(): R[] {
    const { fs } = this.#env;
    const fd = this.#fdOrThrow();
    const size = fs.fstatSync(fd).size;
    if (size <= this.#offset) return [];
    const buffer = Buffer.alloc(size - this.#offset);
    let got = 0;
    while (got < buffer.length) {
      const n = fs.readSync(fd, buffer, got, buffer.length - got, this.#offset + got);
      if (n === 0) break;
      got += n;
    }
    const end = buffer.lastIndexOf(0x0a, got - 1);
    const out: R[] = [];
    if (end >= 0) {
      const text = buffer.subarray(0, end + 1).toString('utf8');
      for (const line of text.split('\n')) {
        if (line === '') {
          continue;
        }
        this.#lines++;
        let value: unknown;
        try {
          value = JSON.parse(line);
        } catch {
          throw corruptError(this.path, this.#lines, 'not JSON');
        }
        if (value === null || typeof value !== 'object' || Array.isArray(value)) throw corruptError(this.path, this.#lines, 'not a record');
        out.push(value as R);
      }
      this.#offset += end + 1;
    }
    // An unterminated end: a writer mid-append (this instance's own included: another reader may
    // see a write half done), or one that crashed. Only a lock holder with no write of its own in
    // flight knows it is a crash (every writer writes under the lock).
    if (this.#offset < size && this.#locked > 0 && this.#flushing === undefined) this.#cutTorn(fd, this.#offset, size - this.#offset);
    return out;
  }

  /** Cut off a dead writer's unterminated last line (at `from`, `bytes` long) and report it. */
  #cutTorn(fd: number, from: number, bytes: number): void {
    this.#env.fs.ftruncateSync(fd, from);
    this.#onNotice({
      journal: this.path,
      line: this.#lines + 1,
      message: `line ${this.#lines + 1} was cut short by a crash (${bytes} bytes) and is dropped: it recorded nothing that completed`,
    });
  }

  /** Under the lock, before writing: the file ends with a whole line, else a dead writer's end is cut off first. */
  #repairTail(fd: number): void {
    const { fs } = this.#env;
    const size = fs.fstatSync(fd).size;
    if (size === 0) return;
    const last = Buffer.alloc(1);
    fs.readSync(fd, last, 0, 1, size - 1);
    if (last[0] === 0x0a) return;
    // Find the last whole line's end (the torn line is short: it is at most one write's worth).
    let at = size;
    const chunk = Buffer.alloc(64 * 1024);
    while (at > 0) {
      const start = Math.max(0, at - chunk.length);
      const n = fs.readSync(fd, chunk, 0, at - start, start);
      const nl = chunk.subarray(0, n).lastIndexOf(0x0a);
      if (nl >= 0) {
        this.#cutTorn(fd, start + nl + 1, size - (start + nl + 1));
        return;
      }
      at = start;
    }
    this.#cutTorn(fd, 0, size);
  }

  append(records: readonly R[]): Promise<void> {
    if (!records.length) return Promise.resolve();
    const text = records.map((r) => `${JSON.stringify(r)}\n`).join('');
    return new Promise((resolve, reject) => {
      this.#queue.push({ text, done: (error) => (error ? reject(error) : resolve()) });
      this.#flushing ??= this.#flush();
    });
  }

  /** Write what is queued in one append and one fsync; what is queued meanwhile goes in the next. */
  async #flush(): Promise<void> {
    const { fs } = this.#env;
    while (this.#queue.length) {
      const batch = this.#queue.splice(0);
      // Every writer writes under the lock, so a lock holder can tell a crash's torn end from a
      // write in flight: a holder (hold or exclusive) has it already, anyone else takes it here.
      const borrowed = this.#locked === 0;
      let locked = false;
      try {
        const fd = this.#fdOrThrow();
        if (borrowed) {
          await lock(this.#env, this.#lockFile, this.path, DEFAULT_WAIT_MS);
          locked = true;
        }
        this.#repairTail(fd);
        const data = Buffer.from(batch.map((b) => b.text).join(''), 'utf8');
        await new Promise<void>((resolve, reject) => fs.write(fd, data, 0, data.length, null, (error) => (error ? reject(error) : resolve())));
        await new Promise<void>((resolve, reject) => fs.fsync(fd, (error) => (error ? reject(error) : resolve())));
        for (const b of batch) b.done();
      } catch (error) {
        for (const b of batch) b.done(error);
      } finally {
        if (locked) unlock(this.#env, this.#lockFile);
      }
    }
    this.#flushing = undefined;
  }

  async exclusive<T>(fn: () => Promise<T>, options: { signal?: AbortSignal | undefined; waitMs?: number | undefined } = {}): Promise<T> {
    if (this.#holding) return fn();
    const before = this.#turn;
    let release!: () => void;
    this.#turn = before.then(() => new Promise<void>((resolve) => (release = resolve)));
    await before;
    try {
      await lock(this.#env, this.#lockFile, this.path, options.waitMs ?? DEFAULT_WAIT_MS, options.signal);
      this.#locked++;
      try {
        return await fn();
      } finally {
        // Every write begun under the lock ends before it is let go (and none can begin between).
        while (this.#flushing) await this.#flushing;
        this.#locked--;
        unlock(this.#env, this.#lockFile);
      }
    } finally {
      release();
    }
  }

  async hold(): Promise<void> {
    if (this.#holding) return;
    // A write of ours may be holding the lock for a moment.
    while (this.#flushing) await this.#flushing;
    const got = tryLock(this.#env, this.#lockFile);
    if (!got.taken) throw lockedError(this.path, got.holder, this.#lockFile);
    this.#holding = true;
    this.#locked++;
  }

  size(): number {
    return this.#fd === undefined ? this.#offset : this.#env.fs.fstatSync(this.#fd).size;
  }

  async close(): Promise<void> {
    while (this.#flushing) await this.#flushing;
    if (this.#holding) {
      this.#holding = false;
      this.#locked--;
      unlock(this.#env, this.#lockFile);
    }
    if (this.#fd !== undefined) this.#env.fs.closeSync(this.#fd);
    this.#fd = undefined;
  }
}

/** Open the journal file at `path` (see {@link FileJournal}). */
export function openJournalFile<R extends JournalRecord>(path: string, options?: StoreOptions): Promise<FileJournal<R>> {
  return FileJournal.open<R>(path, options);
}

/**
 * Make `dir` a private folder for journals: created 0700; refused when it is a symlink or
 * another user's; a folder of ours open to others (a pre-made 0777 one) is closed to 0700.
 */
export async function privateDir(dir: string): Promise<string> {
  const { fs, path } = await env();
  const full = path.resolve(dir);
  fs.mkdirSync(full, { recursive: true, mode: 0o700 });
  const st = fs.lstatSync(full);
  if (st.isSymbolicLink()) throw unsafeError(full, 'the folder is a symbolic link');
  if (!st.isDirectory()) throw unsafeError(full, 'not a folder');
  const me = uid();
  if (me !== undefined && st.uid !== me) throw unsafeError(full, `the folder belongs to user ${st.uid}, not to this user (${me})`);
  if (me !== undefined && (st.mode & 0o077) !== 0) fs.chmodSync(full, 0o700);
  return full;
}

/** A file name for journal `name`: itself when plain, else a hash (a name never escapes the folder). */
async function fileNameOf(name: string): Promise<string> {
  const e = await env();
  return /^[A-Za-z0-9._-]{1,120}$/.test(name) && !name.startsWith('.') ? `${name}.journal` : `j-${e.sha256(name).slice(0, 40)}.journal`;
}

/** A store of JSON-lines journals in the private folder `dir` (see {@link privateDir}). */
export function fileStore(dir: string, options: StoreOptions = {}): Store {
  let ready: Promise<string> | undefined;
  return {
    kind: 'file',
    where: dir,
    async journal<R extends JournalRecord>(name: string) {
      const folder = await (ready ??= privateDir(dir));
      const e = await env();
      return FileJournal.open<R>(e.path.join(folder, await fileNameOf(name)), options);
    },
    async close() {},
  };
}
