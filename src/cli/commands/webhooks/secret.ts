/**
 * What `webhooks verify` and `webhooks listen` share: the help of their signing-secret options
 * and the replay check (`--tolerance`, `--no-timestamp-check`).
 * @module
 */
import { UsageError } from '../../errors.js';
import { parseInteger } from '../../parse.js';
import { ENV } from '../../settings.js';

/** The help of `--secret`: it works, the environment or a file is better. */
export const SECRET_HELP = `the webhook secret; prefer ${ENV.webhookSecret} or --secret-file (a flag value shows in shell history and ps)`;

/** The help text after the options: why the environment or a file beats `--secret` (`stdin`: `-` is offered). */
export const preferHelp = (stdin: boolean) =>
  `\nSecret: prefer the environment (${ENV.webhookSecret}) or a file (--secret-file FILE${stdin ? ', or - for stdin' : ''}) ` +
  'over --secret: a flag value is visible in shell history and to other users in the process list.';

/** The library's replay window (constructWebhookEvent's default toleranceSec). */
export const DEFAULT_TOLERANCE_SEC = 300;

/**
 * The replay check of `verify` and `listen`: on by default with the library's window;
 * `--tolerance N` (N >= 1) changes the window; only `--no-timestamp-check` turns it off
 * (`--tolerance 0` used to, silently: it is now a usage error that names the flag).
 */
export function replayCheck(opts: { tolerance?: string | undefined; timestampCheck?: boolean | undefined }): {
  toleranceSec?: number;
  skipTimestampCheck?: true;
} {
  if (opts.timestampCheck === false) {
    if (opts.tolerance !== undefined) throw new UsageError('--tolerance and --no-timestamp-check contradict each other', 'pass one of them');
    return { skipTimestampCheck: true };
  }
  if (opts.tolerance === undefined) return {};
  if (/^\s*0+\s*$/.test(opts.tolerance)) {
    throw new UsageError(
      '--tolerance 0 no longer turns the replay check off',
      'pass --no-timestamp-check to skip it on purpose, or a window of 1 second or more',
    );
  }
  return { toleranceSec: parseInteger(opts.tolerance, '--tolerance', { min: 1 }) };
}
