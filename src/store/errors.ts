/**
 * The store's refusals, one shape each: a journal another runner holds, a damaged one, and a
 * path or folder that is not safe to keep money's records in.
 * @module
 */
import { TrxRentError } from '../errors/index.js';

/** Another live holder has the journal's lock. */
export function lockedError(journal: string, holder: { pid?: unknown; host?: unknown } | undefined, lock: string): TrxRentError {
  const who =
    holder && typeof holder.pid === 'number'
      ? `another runner (pid ${holder.pid}${typeof holder.host === 'string' ? ` on ${holder.host}` : ''})`
      : 'another runner, or a lock file this version cannot read';
  return new TrxRentError({
    code: 'JOURNAL_LOCKED',
    message: `${who} holds the journal ${journal}; two runners on one journal could pay twice. Wait for it or stop it${holder ? '' : ` (if no runner is left, remove ${lock})`}.`,
    details: { field: 'journal', ...(holder && typeof holder.pid === 'number' ? { pid: holder.pid } : {}), lock },
  });
}

/** A record that is not the end of the file cannot be read: refuse to guess what was done. */
export function corruptError(journal: string, line: number, why: string): TrxRentError {
  return new TrxRentError({
    code: 'JOURNAL_CORRUPT',
    message: `${journal} line ${line} is damaged (${why}); refusing to guess what was sent. Restore the journal from a backup, or move it aside and reconcile with the chain.`,
    details: { field: 'journal', line },
  });
}

/** A journal path or folder that is not safe (a symlink, a second name, another owner, open to others). */
export function unsafeError(path: string, why: string): TrxRentError {
  return new TrxRentError({ code: 'JOURNAL_UNSAFE', message: `Refusing the journal ${path}: ${why}`, details: { field: 'journal', path } });
}

/**
 * A holder's lease on a journal passed (it stalled or lost the server) and its write is refused:
 * another runner may have taken the journal over since (the fencing token grew), and a late
 * result written now could pay a row twice.
 */
export function fencedError(journal: string, token: string, takenBy?: string): TrxRentError {
  return new TrxRentError({
    code: 'JOURNAL_FENCED',
    message: `This runner's lease on ${journal} passed (token ${token}${takenBy ? `, taken over with token ${takenBy}` : ''}); its late write is refused so nothing is recorded twice. Start the runner again to resume from what the journal holds.`,
    details: { field: 'journal', token, ...(takenBy ? { taken_by: takenBy } : {}) },
  });
}
