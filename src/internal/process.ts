/**
 * Whether a process still runs, for records that name their owner's pid (the running mock's
 * record, a payout journal's lock): a record whose process is gone is stale and may be taken
 * over. Node only.
 * @module
 */

/** True when process `pid` exists: signal 0 checks without sending anything (EPERM: it exists, owned by another user). */
export function processAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}
