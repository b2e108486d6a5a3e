/**
 * Terminal safety: text from a server (provider names, error messages, addresses, webhook
 * payloads, x402 payTo …) must not drive the terminal. The output layer passes everything it
 * writes for people through `sanitizeText`, and every JSON document through `safeJson`; commands
 * never sanitise on their own.
 *
 * Removed: ESC sequences (CSI, OSC such as window titles and OSC 8 links, DCS/SOS/PM/APC strings,
 * two-character escapes), their 8-bit C1 forms, every other C0 control but newline and tab (CR,
 * BEL, backspace …), DEL, and the bidirectional overrides and isolates (Trojan Source).
 */

/** Our own colours (output.ts makeStyles): the only escape sequences `keepStyles` lets through. */
const OWN_SGR = /^\u001b\[(?:1|2|22|31|32|33|35|36|39)m$/;

/**
 * One token to remove, tried left to right, longest kind first:
 * - a string sequence: OSC (ESC ] or 0x9d: window titles, OSC 8 links), DCS (ESC P, 0x90), SOS
 *   (ESC X, 0x98), PM (ESC ^, 0x9e), APC (ESC _, 0x9f), through BEL or ST (ESC \ or 0x9c), or to
 *   the end when unterminated;
 * - a CSI sequence (ESC [ or 0x9b, parameters, intermediates, final byte): cursor moves, clears, SGR;
 * - any other escape: ESC and the character after it (ESC c, ESC 7 …), or a lone ESC;
 * - one control: C0 but tab and newline, DEL, C1, the bidi marks, embeddings, overrides, isolates.
 */
const TOKEN =
  /(?:\u001b[\]PX^_]|[\u0090\u0098\u009d-\u009f])[\s\S]*?(?:\u0007|\u001b\\|\u009c|$)|(?:\u001b\[|\u009b)[\u0030-\u003f]*[\u0020-\u002f]*[\u0040-\u007e]?|\u001b[\u0020-\u007e]?|[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]/g;
const ANY = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]/;

/**
 * `text` with every control and escape sequence removed. With `keepStyles`, the colour codes the
 * CLI itself emits survive (any other sequence, other SGR codes included, does not).
 */
export function sanitizeText(text: string, { keepStyles = false }: { keepStyles?: boolean } = {}): string {
  if (!ANY.test(text)) return text;
  return text.replace(TOKEN, (token) => (keepStyles && OWN_SGR.test(token) ? token : ''));
}

// Characters JSON.stringify leaves raw that a terminal would still act on.
const JSON_UNSAFE = /[\u007f-\u009f\u061c\u200e\u200f\u2028\u2029\u202a-\u202e\u2066-\u2069]/g;

function jsonReplacer(_key: string, value: unknown): unknown {
  return typeof value === 'bigint' ? value.toString() : value;
}

/**
 * `JSON.stringify` (bigints as strings) with DEL, C1 and bidi controls written as `\uXXXX`
 * escapes: the same JSON value, byte for byte safe on a terminal (C0 controls JSON already escapes).
 */
export function safeJson(value: unknown, indent?: number): string {
  return JSON.stringify(value, jsonReplacer, indent).replace(JSON_UNSAFE, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
}
