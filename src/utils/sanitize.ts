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

/**
 * Our own colours (output.ts makeStyles) carry this mark just before their escape: a string of
 * C0 controls drawn at random when the CLI starts. Server text cannot know it (nor send it: a
 * control is removed like any other), so `keepStyles` lets through exactly the colour codes the
 * CLI wrote, and never the same codes inside a provider name or an error message.
 */
export const STYLE_MARK = (() => {
  // 21 controls (not tab, newline, CR or ESC), 16 of them: about 2^70 possible marks.
  const alphabet = '\u0001\u0002\u0003\u0004\u0005\u0006\u0007\u0008\u000e\u000f\u0010\u0011\u0012\u0013\u0014\u0015\u0016\u0017\u0018\u0019\u001a';
  const bytes = globalThis.crypto.getRandomValues(new Uint8Array(16));
  return Array.from(bytes, (b) => alphabet[b % alphabet.length]).join('');
})();

/** Our own colour codes, each right after the mark: the only escape sequences `keepStyles` lets through. */
const OWN_SGR = new RegExp(`${STYLE_MARK}\u001b\\[(1|2|22|31|32|33|35|36|39)m`, 'g');

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
 * CLI itself emitted (marked with {@link STYLE_MARK}) survive, unmarked; any other sequence,
 * the very same colour codes sent by a server included, does not.
 */
export function sanitizeText(text: string, { keepStyles = false }: { keepStyles?: boolean } = {}): string {
  if (!ANY.test(text)) return text;
  if (!keepStyles) return text.replace(TOKEN, '');
  let out = '';
  let from = 0;
  OWN_SGR.lastIndex = 0;
  for (let m = OWN_SGR.exec(text); m; m = OWN_SGR.exec(text)) {
    out += text.slice(from, m.index).replace(TOKEN, '') + `\u001b[${m[1]}m`;
    from = m.index + m[0].length;
  }
  return out + text.slice(from).replace(TOKEN, '');
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
