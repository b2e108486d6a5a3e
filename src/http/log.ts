/**
 * Debug logging that cannot leak credentials: only method, URL path, status and timing are
 * ever formatted (never headers); bodies (which may hold a new key or a webhook secret) are
 * never logged, and error text is passed through redactText.
 * @module
 */
import { env } from './env.js';

/** Where debug lines go (`logger` option); default: stderr. */
export interface Logger {
  /** One line per request attempt: method, path, status, timing; never headers or bodies. */
  debug(message: string): void;
}

/** `debug` logs each request attempt; `off` (default unless `TRX_RENT_LOG=debug`) formats nothing. */
export type LogLevel = 'off' | 'debug';

export const stderrLogger: Logger = {
  debug(message) {
    // eslint-disable-next-line no-console
    console.error(message);
  },
};

/**
 * The logger a client uses: `options.logger` (or stderr) when the level is `debug`, from the
 * option or `TRX_RENT_LOG=debug`; undefined, so that nothing is even formatted, otherwise.
 */
export function resolveLogger(options: { logLevel?: LogLevel | undefined; logger?: Logger | undefined }): Logger | undefined {
  const level = options.logLevel ?? (env('TRX_RENT_LOG') === 'debug' ? 'debug' : 'off');
  return level === 'debug' ? (options.logger ?? stderrLogger) : undefined;
}
