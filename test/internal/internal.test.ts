/** The one-of-each helpers in src/internal: canonical JSON, the loopback test, redaction, the pagination walker. */
import { describe, expect, it } from 'vitest';
import { PaginationLimitError } from '../../src/errors/index.js';
import { ENDPOINTS } from '../../src/api/endpoints.js';
import { canonicalJson, sameJson } from '../../src/internal/json.js';
import { isLoopbackHost } from '../../src/internal/net.js';
import { walkPages } from '../../src/internal/paginate.js';
import { redactText } from '../../src/internal/redact.js';

describe('canonicalJson: JSON.stringify semantics, keys sorted', () => {
  it('drops undefined members, writes undefined in arrays as null, honours toJSON', () => {
    expect(canonicalJson({ b: 1, a: undefined, c: [undefined, 2] })).toBe('{"b":1,"c":[null,2]}');
    expect(sameJson({ a: 1, b: undefined }, { a: 1 })).toBe(true);
    expect(canonicalJson({ d: new Date(0) })).toBe(JSON.stringify({ d: new Date(0) }));
    expect(canonicalJson(undefined)).toBe('null');
    expect(canonicalJson({ z: { y: 1, x: 2 }, a: 0 })).toBe('{"a":0,"z":{"x":2,"y":1}}');
    const value = { b: [1, { d: undefined, c: 'x' }], a: null };
    expect(JSON.parse(canonicalJson(value))).toEqual(JSON.parse(JSON.stringify(value)));
  });
});

describe('isLoopbackHost: one rule for credentials, webhooks, binding', () => {
  it('loopback names and addresses, IPv4-mapped forms, brackets and a trailing dot', () => {
    for (const h of ['localhost', 'LOCALHOST.', 'app.localhost', '127.0.0.1', '127.1.2.3', '::1', '[::1]', '[::ffff:127.0.0.1]', '[::ffff:7f00:1]'])
      expect(isLoopbackHost(h), h).toBe(true);
    for (const h of ['0.0.0.0', 'example.com', 'localhost.example.com', '128.0.0.1', '[::2]', '127.0.0.1.nip.io', '::ffff:10.0.0.1'])
      expect(isLoopbackHost(h), h).toBe(false);
  });
});

describe('redactText', () => {
  it('masks keys and JWTs', () => {
    expect(redactText('key sk_live_abc123 jwt eyJa.eyJb.sig')).toBe('key sk_live_[redacted] jwt [redacted-jwt]');
  });
});

describe('walkPages: driven by the table entry, trusts no server to end it', () => {
  const facts = ENDPOINTS.listOrders.pagination;
  const page = (ids: string[], total: number) => ({ orders: ids.map((id) => ({ id })), total });
  const collect = async (walk: AsyncIterable<unknown>) => {
    const out: unknown[] = [];
    for await (const x of walk) out.push((x as { id: string }).id);
    return out;
  };

  it('walks by offset until total', async () => {
    const asked: number[] = [];
    const pages = [page(['a', 'b'], 5), page(['c', 'd'], 5), page(['e'], 5)];
    const ids = await collect(walkPages({ facts, fetchPage: async (o) => (asked.push(o), pages[o / 2]!) }));
    expect([ids, asked]).toEqual([
      ['a', 'b', 'c', 'd', 'e'],
      [0, 2, 4],
    ]);
  });

  it('stops on a page with nothing new, and never yields an item twice', async () => {
    const ids = await collect(walkPages({ facts, fetchPage: async () => page(['a', 'b'], 99) }));
    expect(ids).toEqual(['a', 'b']);
  });

  it('fails past maxPages', async () => {
    let n = 0;
    const walk = walkPages({ facts, maxPages: 3, fetchPage: async () => page([`x${n++}`], 99) });
    await expect(collect(walk)).rejects.toBeInstanceOf(PaginationLimitError);
  });
});
