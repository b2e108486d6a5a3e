/**
 * The one redaction helper: masks credentials inside free text before it reaches a log line, an
 * error message or a terminal, and scrubs an error a server echoed a secret into.
 * @module
 */

/**
 * Masks anything that looks like an sk_live_ key, a JWT, or the user name and password of a URL
 * (`https://user:pass@host` becomes `https://[redacted]@host`) inside free text (e.g. an error
 * message: fetch's own names the URL it refused).
 */
export function redactText(text: string): string {
  return text
    .replace(/sk_(live|test)_[A-Za-z0-9]+/g, 'sk_$1_[redacted]')
    .replace(/eyJ[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+/g, '[redacted-jwt]')
    .replace(/\b([a-z][a-z0-9+.-]*:\/\/)[^\s/?#@]*@/gi, '$1[redacted]@');
}

/**
 * `text` with every occurrence of each secret replaced (a key a server echoed back in an error
 * message), then {@link redactText}. Secrets shorter than 8 characters are not searched for:
 * they would mask ordinary words.
 */
export function redactSecrets(text: string, secrets: readonly string[]): string {
  let out = text;
  for (const secret of secrets) if (secret.length >= 8 && out.includes(secret)) out = out.split(secret).join('[redacted]');
  return redactText(out);
}

function scrubValue(value: unknown, secrets: readonly string[], depth: number): unknown {
  if (typeof value === 'string') return redactSecrets(value, secrets);
  if (depth > 8 || value === null || typeof value !== 'object') return value;
  if (Array.isArray(value)) return value.map((v) => scrubValue(v, secrets, depth + 1));
  return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, scrubValue(v, secrets, depth + 1)]));
}

/**
 * The error with `secrets` (and key-, JWT- and password-shaped text) masked in its message, stack
 * and details: a server that echoes the request's key back in an error body must not put it in
 * logs, reports or a CLI's stderr. Changes the error in place and returns it.
 */
export function scrubError<E>(error: E, secrets: readonly string[]): E {
  if (!(error instanceof Error)) return error;
  const message = redactSecrets(error.message, secrets);
  if (message !== error.message) error.message = message;
  // The stack was written when the error was made, message included.
  if (typeof error.stack === 'string') {
    const stack = redactSecrets(error.stack, secrets);
    if (stack !== error.stack) error.stack = stack;
  }
  const holder = error as unknown as { details?: unknown };
  if (holder.details && typeof holder.details === 'object') {
    const text = JSON.stringify(holder.details) ?? '';
    if (redactSecrets(text, secrets) !== text) holder.details = scrubValue(holder.details, secrets, 0);
  }
  return error;
}

/**
 * A copy of `value` (JSON-like data: a journal line, a tool's result) with {@link redactText}
 * applied to every string in it, at any depth up to 8 levels.
 */
export function redactDeep<T>(value: T): T {
  return scrubValue(value, [], 0) as T;
}
