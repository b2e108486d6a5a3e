/**
 * The one redaction helper: masks credentials inside free text before it reaches a log line, an
 * error message or a terminal.
 * @module
 */

/** Masks anything that looks like an sk_live_/sk_test_ key or a JWT inside free text (e.g. an error message). */
export function redactText(text: string): string {
  return text
    .replace(/sk_(live|test)_[A-Za-z0-9]+/g, 'sk_$1_[redacted]')
    .replace(/eyJ[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+/g, '[redacted-jwt]');
}
