/**
 * The one canonical JSON: equal text for equal JSON, whatever the order of object keys.
 *
 * The rule is JSON's own (what `JSON.stringify` would send on the wire): an object member whose
 * value is `undefined` (or a function) is left out, the same inside an array becomes `null`, a
 * value with `toJSON` (a Date) is written as what `toJSON` returns, and a lone `undefined` is
 * `null`. So `{ a: 1, b: undefined }` and `{ a: 1 }` are the same request, as they are once sent.
 * (Of the two copies this replaces, the idempotency store's wrote `"b":undefined`, which is not
 * JSON and made two bodies that serialise alike compare different.)
 * @module
 */

/** JSON text with object keys sorted, for order-independent equality. */
export function canonicalJson(value: unknown): string {
  return write(value) ?? 'null';
}

/** True when `a` and `b` are the same JSON, whatever the order of object keys. */
export function sameJson(a: unknown, b: unknown): boolean {
  return canonicalJson(a) === canonicalJson(b);
}

function write(value: unknown): string | undefined {
  if (value !== null && typeof value === 'object' && typeof (value as { toJSON?: unknown }).toJSON === 'function') {
    value = (value as { toJSON(): unknown }).toJSON();
  }
  if (value === undefined || typeof value === 'function' || typeof value === 'symbol') return undefined;
  if (Array.isArray(value)) return `[${value.map((v) => write(v) ?? 'null').join(',')}]`;
  if (value !== null && typeof value === 'object') {
    const parts: string[] = [];
    for (const key of Object.keys(value as Record<string, unknown>).sort()) {
      const text = write((value as Record<string, unknown>)[key]);
      if (text !== undefined) parts.push(`${JSON.stringify(key)}:${text}`);
    }
    return `{${parts.join(',')}}`;
  }
  return JSON.stringify(value);
}
