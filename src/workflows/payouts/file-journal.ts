/**
 * The payout journal as a JSON-lines file (Node only; loaded lazily): one entry per line,
 * appended with O_APPEND and fsync'd before the write resolves (concurrent writes share one
 * fsync), mode 0600. A lock file beside it (`<journal>.lock`, holding the runner's pid) refuses
 * a second runner on the same journal; a lock left by a process that no longer exists (a crash,
 * SIGKILL) is taken over. A last line cut short by a crash is ignored on reading.
 * @module
 */
import type { FileHandle } from 'node:fs/promises';
import { nodeModule } from '../../internal/node-module.js';
import { TrxRentError } from '../../errors/index.js';
import { type JournalEntry, MemoryJournal } from './journal.js';
import { processAlive } from '../../internal/process.js';


/** Lock files held by this process: a second runner in the same process is refused too. */
const held = new Set<string>();

type Fs = typeof import('node:fs');
// Node's fs, loaded when a journal is opened (loadFs): a browser bundle of the core never resolves it.
let fs!: Fs;
let open!: (typeof import('node:fs/promises'))['open'];
let dirname!: (typeof import('node:path'))['dirname'];

async function loadFs(): Promise<void> {
  if (fs) return;
  const [fsModule, promises, path] = await Promise.all([
    nodeModule<Fs>('node:fs'),
    nodeModule<typeof import('node:fs/promises')>('node:fs/promises'),
    nodeModule<typeof import('node:path')>('node:path'),
  ]);
  open = promises.open;
  dirname = path.dirname;
  fs = fsModule;
}

/** Take `<path>.lock` for this process, or refuse (JOURNAL_LOCKED) while another live runner holds it. */
function lock(path: string): string {
  const file = `${path}.lock`;
  for (let attempt = 0; attempt < 3; attempt++) {
    try {
      const fd = fs.openSync(file, 'wx', 0o600);
      fs.writeSync(fd, `${process.pid}\n`);
      fs.fsyncSync(fd);
      fs.closeSync(fd);
      held.add(file);
      return file;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
      let pid = Number.NaN;
      try {
        pid = Number.parseInt(fs.readFileSync(file, 'utf8'), 10);
      } catch {
        continue; // removed meanwhile
      }
      if (Number.isSafeInteger(pid) && pid > 0 && (pid === process.pid ? held.has(file) : processAlive(pid))) {
        throw new TrxRentError({
          code: 'JOURNAL_LOCKED',
          message: `Another runner (pid ${pid}) is using the journal ${path}; two runners on one journal could pay twice. Wait for it or stop it.`,
          details: { field: 'journal', pid, lock: file },
        });
      }
      try {
        fs.unlinkSync(file); // left by a process that is gone
      } catch {
        // another runner took it over first: try again
      }
    }
  }
  throw new TrxRentError({ code: 'JOURNAL_LOCKED', message: `Could not take the lock ${file}`, details: { field: 'journal', lock: file } });
}

function readEntries(path: string): { entries: JournalEntry[]; bytes: number; torn: boolean } {
  if (!fs.existsSync(path)) return { entries: [], bytes: 0, torn: false };
  const text = fs.readFileSync(path, 'utf8');
  const lines = text.split('\n');
  const entries: JournalEntry[] = [];
  let torn = false;
  lines.forEach((line, i) => {
    if (line === '') return;
    try {
      entries.push(JSON.parse(line) as JournalEntry);
    } catch {
      // Only the last line can be cut short by a crash; anything else is a damaged journal.
      if (i !== lines.length - 1) {
        throw new TrxRentError({ code: 'JOURNAL_CORRUPT', message: `${path} line ${i + 1} is not JSON; refusing to guess what was sent`, details: { field: 'journal', line: i + 1 } });
      }
      torn = true;
    }
  });
  return { entries, bytes: Buffer.byteLength(text), torn: torn || (text.length > 0 && !text.endsWith('\n')) };
}

/** A {@link PayoutJournal} in a JSON-lines file. Open with {@link openFileJournal}. */
export class FileJournal extends MemoryJournal {
  readonly path: string;
  readonly #lock: string;
  #handle: FileHandle | undefined;
  #bytes: number;
  #needsNewline: boolean;
  #queue: { line: string; done: (error?: unknown) => void }[] = [];
  #flushing: Promise<void> | undefined;

  private constructor(path: string, lockFile: string, read: ReturnType<typeof readEntries>) {
    super(read.entries);
    this.path = path;
    this.#lock = lockFile;
    this.#bytes = read.bytes;
    this.#needsNewline = read.torn;
  }

  /** Lock and read `path` (created on the first write). */
  static async open(path: string): Promise<FileJournal> {
    await loadFs();
    const lockFile = lock(path);
    try {
      const journal = new FileJournal(path, lockFile, readEntries(path));
      journal.#handle = await open(path, 'a', 0o600);
      return journal;
    } catch (error) {
      held.delete(lockFile);
      fs.unlinkSync(lockFile);
      throw error;
    }
  }

  override size(): number {
    return this.#bytes;
  }

  protected override persist(entry: JournalEntry): Promise<void> {
    const line = `${JSON.stringify(entry)}\n`;
    return new Promise((resolve, reject) => {
      this.#queue.push({ line, done: (error) => (error ? reject(error) : resolve()) });
      this.#flushing ??= this.#flush();
    });
  }

  /** Write what is queued in one append and one fsync; entries queued meanwhile go in the next. */
  async #flush(): Promise<void> {
    while (this.#queue.length) {
      const batch = this.#queue.splice(0);
      let text = batch.map((b) => b.line).join('');
      if (this.#needsNewline) text = `\n${text}`;
      try {
        if (!this.#handle) throw new TrxRentError({ code: 'JOURNAL_CLOSED', message: `The journal ${this.path} is closed` });
        await this.#handle.write(text);
        await this.#handle.sync();
        this.#needsNewline = false;
        this.#bytes += Buffer.byteLength(text);
        for (const b of batch) b.done();
      } catch (error) {
        for (const b of batch) b.done(error);
      }
    }
    this.#flushing = undefined;
  }

  override async close(): Promise<void> {
    await this.#flushing;
    await this.#handle?.close();
    this.#handle = undefined;
    held.delete(this.#lock);
    try {
      fs.unlinkSync(this.#lock);
    } catch {
      // already gone
    }
  }
}

/** Open (lock, read) the journal at `path`; its folder must exist. */
export async function openFileJournal(path: string): Promise<FileJournal> {
  await loadFs();
  if (!fs.existsSync(dirname(path))) {
    throw new TrxRentError({ code: 'VALIDATION_ERROR', message: `journal: the folder ${dirname(path)} does not exist`, details: { field: 'journal' } });
  }
  return FileJournal.open(path);
}
