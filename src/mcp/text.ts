/**
 * What people and agents read from the MCP server: every string that came from a service
 * (order ids and statuses, error messages, an x402 `payTo`, a settlement `transaction`) loses
 * its control characters and escape sequences (src/utils/sanitize.ts, the CLI's sanitiser)
 * before it reaches the stderr log, a confirmation dialog or a tool result.
 * @module
 */
import { sanitizeText } from '../utils/sanitize.js';

/**
 * `text` as one safe line: escapes and controls removed, and newlines, tabs and Unicode line
 * separators turned into spaces, so server text cannot start a forged log line.
 */
export function oneLine(text: string): string {
  return sanitizeText(text).replace(/[\n\t\u2028\u2029]+/g, ' ');
}

/** A deep copy of a JSON value with every string sanitised (keys too); bigints as strings. */
export function cleanData(value: unknown): unknown {
  if (typeof value === 'string') return sanitizeText(value).replace(/[\u2028\u2029]/g, ' ');
  if (typeof value === 'bigint') return value.toString();
  if (Array.isArray(value)) return value.map(cleanData);
  if (value !== null && typeof value === 'object') {
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(value as Record<string, unknown>)) {
      if (typeof v === 'function' || v === undefined) continue;
      out[oneLine(k)] = cleanData(v);
    }
    return out;
  }
  return value;
}

/** Server text quoted as data (JSON string syntax): newlines and quotes cannot break out of it. */
export function quoted(text: string): string {
  return JSON.stringify(sanitizeText(text));
}

const TRON_TX = /^[0-9a-fA-F]{64}$/;
const EVM_TX = /^0x[0-9a-fA-F]{64}$/;

/**
 * Whether `transaction` has the shape of a transaction hash on `network`: 64 hex digits on TRON
 * (`tron:…`), `0x` and 64 hex digits on an EVM chain (`eip155:…`). Anything else (a hostile
 * facilitator's escape sequences, prose, an id of another shape) is not shown as a hash.
 */
export function isTransactionHash(network: string, transaction: string): boolean {
  if (network.startsWith('tron:') || /^tron/i.test(network)) return TRON_TX.test(transaction);
  if (network.startsWith('eip155:') || /^base/i.test(network)) return EVM_TX.test(transaction);
  return TRON_TX.test(transaction) || EVM_TX.test(transaction);
}
