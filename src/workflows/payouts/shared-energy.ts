/**
 * The sender's energy counted across the workers of a shared batch (a journal with row claims):
 * each worker signs a row only after counting its energy in the journal, inside the journal's
 * exclusive section, against what the node shows less what every worker counted for rows not
 * final yet. A count that does not fit while other rows are in flight waits for them to settle
 * (their energy may be used already, and the node not show it yet), up to `settleMs`; one that
 * does not fit with nothing in flight (or after the wait) tops up there, in the same section, so
 * one worker tops up at a time and the next finds the energy. A worker counting on its own would
 * sign against energy another worker's rows are using: they would burn TRX for it.
 * @module
 */
import { TimeoutError } from '../../errors/index.js';
import type { Clock } from '../../utils/clock.js';
import type { PayoutJournal } from './journal.js';

/** What {@link sharedEnergy} works with. */
export interface SharedEnergyDeps {
  journal: PayoutJournal;
  /** The batch's key: the section is `<key>::energy` (never a row's key). */
  key: string;
  /** The sender's energy on the node now. */
  read(): Promise<number>;
  /** Top up (inside the section) so the sender can spend `energy`; the energy the node shows after. */
  topUp(energy: number): Promise<number>;
  clock: Clock;
  stop: AbortSignal;
  /** How long a count that does not fit waits for the rows in flight before topping up, ms. */
  settleMs: number;
  /** How long one count may take in all (a TimeoutError after: the row is left for later), ms. */
  timeoutMs: number;
}

/** `reserve(id, energy)`: count row `id`'s energy for the batch's workers (see the module comment). */
export function sharedEnergy(d: SharedEnergyDeps): (id: string, energy: number) => Promise<void> {
  const { journal, clock, stop } = d;
  const index = journal.index;
  const count = (id: string, energy: number) => journal.append({ type: 'counted', id, energy, at: clock.now() });
  return async (id, energy) => {
    const waitUntil = clock.now() + d.settleMs;
    const deadline = clock.now() + d.timeoutMs;
    // Bounded by the deadline: each turn is a look (the wait for rows in flight ends at waitUntil) or a lock wait that ran out.
    while (clock.now() < deadline && !stop.aborted) {
      let done = false;
      try {
        done = await journal.exclusive!(
          `${d.key}::energy`,
          async () => {
            await journal.sync();
            const inFlight = index.countedOpen(id);
            const now = await d.read();
            if (now - inFlight < energy) {
              // Short: the rows in flight may have used theirs already and the node not show it
              // yet; wait for them to settle (outside the section), then top up.
              if (inFlight > 0 && clock.now() < waitUntil) return false;
              await d.topUp(inFlight + energy);
            }
            await count(id, energy);
            return true;
          },
          stop,
        );
      } catch (error) {
        // Another worker's top-up holds the section longer than a lock wait: look again.
        if ((error as { code?: string })?.code !== 'JOURNAL_LOCKED') throw error;
      }
      if (done) return;
      await clock.sleep(250, stop).catch(() => {});
    }
    stop.throwIfAborted();
    throw new TimeoutError(
      `Counting the energy of row ${id} took over ${d.timeoutMs} ms (another worker's top-up holds the journal); the row is left for later`,
    );
  };
}
