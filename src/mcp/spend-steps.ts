/**
 * Two steps of the MCP spend guard (`spend.ts`) that need none of its state: asking the user to
 * approve a spend (a refusal when they decline or the client cannot ask), and a lookup bounded
 * in time (its requests aborted at the deadline, and no wait for one that ignores its signal).
 * @module
 */
import { TrxRentError } from '../errors/index.js';
import type { Clock } from '../utils/clock.js';
import { type Known, type SpendJob, SpendRefusedError } from './outcome.js';
import { oneLine } from './text.js';

/**
 * Asks the user to approve `message`: true approved, false declined (or cancelled), undefined
 * when the client cannot ask (no elicitation support).
 */
export type Confirmer = (message: string) => Promise<boolean | undefined>;

/**
 * The user's approval of `text` (one sanitised sentence), or a refusal: declined, or no way to
 * ask (unless `withoutConfirmation`, when `log` notes that it went ahead unconfirmed).
 */
export async function approval(ask: Confirmer, text: string, withoutConfirmation: boolean, log: (line: string) => void): Promise<void> {
  let answer: boolean | undefined;
  try {
    answer = await ask(`${text}. Approve?`);
  } catch (error) {
    throw new SpendRefusedError(
      'DECLINED',
      `Could not get the user's confirmation (${oneLine(String((error as Error)?.message ?? error))}); nothing was spent.`,
    );
  }
  if (answer === true) return;
  if (answer === false) throw new SpendRefusedError('DECLINED', 'The user declined; nothing was spent.');
  if (!withoutConfirmation) {
    throw new SpendRefusedError(
      'CONFIRMATION_REQUIRED',
      'This client cannot ask the user to confirm a spend (it declares no elicitation support), so nothing was spent. ' +
        'Use a client that supports elicitation, or the user can restart the server with --spend-without-confirmation (the caps still apply).',
    );
  }
  log(`not confirmed (the client cannot ask; --spend-without-confirmation): ${text}`);
}

/** `job`'s lookup of `key`, given `timeoutMs` on `clock` (run inside `scope`); undefined when it learnt nothing in time. */
export async function boundedLookup(
  job: SpendJob<unknown>,
  what: { tool: string; key: string },
  clock: Clock,
  timeoutMs: number,
  scope: <T>(fn: () => Promise<T>) => Promise<T>,
): Promise<Known | undefined> {
  const controller = new AbortController();
  const timeout = new AbortController();
  // The deadline: aborts the lookup's requests, and stops waiting for one that ignores its signal.
  const expired = clock.sleep(timeoutMs, timeout.signal).then(
    () => {
      controller.abort(new TrxRentError({ code: 'TIMEOUT', message: `lookup of ${what.tool} (idempotency key ${what.key}) took over ${timeoutMs} ms` }));
      return undefined;
    },
    () => undefined,
  );
  try {
    return await scope(() => Promise.race([job.lookup(what.key, controller.signal), expired]));
  } catch {
    return undefined; // nothing learnt: stays reserved
  } finally {
    timeout.abort();
  }
}
