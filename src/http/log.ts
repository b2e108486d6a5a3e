/**
 * Debug logging that cannot leak credentials: only method, URL path, status, timing and
 * redacted header names are ever formatted; bodies (which may hold a new key or a webhook
 * secret) are never logged.
 */

export interface Logger {
  debug(message: string): void;
}

export type LogLevel = 'off' | 'debug';

const SECRET_HEADERS = new Set(['x-api-key', 'authorization', 'cookie', 'set-cookie', 'payment-signature', 'x-payment']);

export function redactHeaders(headers: Headers | Record<string, string>): Record<string, string> {
  const out: Record<string, string> = {};
  const entries = headers instanceof Headers ? headers.entries() : Object.entries(headers);
  for (const [name, value] of entries) {
    out[name] = SECRET_HEADERS.has(name.toLowerCase()) ? '[redacted]' : value;
  }
  return out;
}

/** Masks anything that looks like an sk_live_ key or a JWT inside free text (e.g. an error message). */
export function redactText(text: string): string {
  return text
    .replace(/sk_(live|test)_[A-Za-z0-9]+/g, 'sk_$1_[redacted]')
    .replace(/eyJ[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+/g, '[redacted-jwt]');
}

export const stderrLogger: Logger = {
  debug(message) {
    // eslint-disable-next-line no-console
    console.error(message);
  },
};
