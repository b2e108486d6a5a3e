import { createHmac } from 'node:crypto';
import fc from 'fast-check';
import { beforeAll, describe, expect, it, vi } from 'vitest';
import * as nodePath from '../../src/webhooks/index.js';
import { BUDGET, hex } from './budget.js';

/**
 * Hostile input for `trx-rent/webhooks`, on 10,000 random bodies, headers and secrets:
 * - `verifyWebhookSignature` never throws and returns true only for the exact signature of the
 *   exact body under the exact (non-empty) secret;
 * - `constructWebhookEvent` never throws anything but `WebhookSignatureError`, and what it returns
 *   is a signed, well-formed, fresh event.
 * Both runtime paths are fuzzed: Node's crypto fast path, and the Web Crypto path browsers and edge
 * workers take (the module loaded again with `process.getBuiltinModule` hidden).
 * The oracle is node:crypto's HMAC, computed independently here.
 */

type Webhooks = typeof nodePath;
type Body = string | Uint8Array | ArrayBuffer;

const encoder = new TextEncoder();
function bodyBytes(body: Body): Uint8Array {
  return typeof body === 'string' ? encoder.encode(body) : body instanceof Uint8Array ? body : new Uint8Array(body);
}
function expectedDigest(body: Body, secret: string): string {
  return createHmac('sha256', Buffer.from(secret, 'utf8')).update(bodyBytes(body)).digest('hex');
}

/** What the docs promise to accept: `sha256=<hex>` or bare hex, any case, surrounding whitespace ignored. */
function shouldAccept(header: string | null | undefined, body: Body, secret: string): boolean {
  if (typeof header !== 'string' || secret === '') return false;
  const value = header.trim().toLowerCase();
  const digest = value.startsWith('sha256=') ? value.slice(7) : value;
  return digest === expectedDigest(body, secret);
}

const now = 1_763_000_000_000;
const nowSec = now / 1000;

const secret = fc.oneof(
  { weight: 3, arbitrary: fc.string({ minLength: 1, maxLength: 64 }) },
  { weight: 2, arbitrary: fc.uint8Array({ minLength: 16, maxLength: 32 }).map(hex) },
  { weight: 1, arbitrary: fc.string({ unit: 'binary', maxLength: 40 }) }, // lone surrogates included
  { weight: 1, arbitrary: fc.constant('') },
);

const event = fc.record(
  {
    event: fc.oneof(
      fc.constantFrom('order.filled', 'order.failed', 'deposit.received', 'deposit.confirmed', 'withdrawal.completed'),
      fc.constantFrom('__proto__', 'constructor', 'toString', 'valueOf', 'hasOwnProperty'), // once returned a function as `event`
      fc.string(),
    ),
    data: fc.oneof({ weight: 4, arbitrary: fc.dictionary(fc.string({ maxLength: 8 }), fc.jsonValue({ maxDepth: 2 })) }, fc.jsonValue({ maxDepth: 2 })),
    timestamp: fc.oneof(
      fc.integer({ min: nowSec - 600, max: nowSec + 600 }), // around the tolerance edges
      fc.integer({ min: now - 600_000, max: now + 600_000 }), // milliseconds
      fc.integer({ min: nowSec - 600, max: nowSec + 600 }).map(String),
      fc.double(),
      fc.string({ maxLength: 12 }),
      fc.constantFrom(null, true, [], {}, '1e400', '  ', '0x10'),
    ),
  },
  { requiredKeys: [] },
);

/** Bodies: signed-looking events (as text, bytes, ArrayBuffer, an offset view), JSON values, random text and bytes. */
const body: fc.Arbitrary<Body> = fc.oneof(
  { weight: 4, arbitrary: event.map((e) => JSON.stringify(e)) },
  { weight: 1, arbitrary: event.map((e) => encoder.encode(JSON.stringify(e))) },
  { weight: 1, arbitrary: event.map((e) => encoder.encode(JSON.stringify(e)).slice().buffer as ArrayBuffer) },
  {
    weight: 1,
    arbitrary: fc.tuple(event, fc.nat(8)).map(([e, pad]) => {
      const bytes = encoder.encode(`${'x'.repeat(pad)}${JSON.stringify(e)}`);
      return bytes.subarray(pad); // a view that does not start at offset 0 of its buffer
    }),
  },
  { weight: 1, arbitrary: fc.jsonValue({ maxDepth: 3 }).map((v) => JSON.stringify(v) ?? 'null') },
  { weight: 1, arbitrary: fc.string({ unit: 'binary', maxLength: 200 }) },
  { weight: 1, arbitrary: fc.uint8Array({ maxLength: 200 }) }, // often invalid UTF-8
  { weight: 1, arbitrary: fc.constant('') },
);

const hexChar = fc.constantFrom(...'0123456789abcdefABCDEF'.split(''));

/** Headers derived from the right digest (correct, re-cased, mutated, truncated, …) or unrelated. */
function header(b: Body, s: string): fc.Arbitrary<string | null | undefined> {
  const right = expectedDigest(b, s);
  return fc.oneof(
    { weight: 4, arbitrary: fc.constant(`sha256=${right}`) },
    { weight: 1, arbitrary: fc.constantFrom(`SHA256=${right.toUpperCase()}`, right, ` sha256=${right}\n`, `Sha256=${right}`) },
    {
      weight: 3,
      arbitrary: fc.tuple(fc.nat(63), hexChar).map(([i, c]) => `sha256=${right.slice(0, i)}${c}${right.slice(i + 1)}`), // usually one digit changed
    },
    { weight: 1, arbitrary: fc.nat(63).map((n) => `sha256=${right.slice(0, n)}`) },
    { weight: 1, arbitrary: hexChar.map((c) => `sha256=${right}${c}`) },
    {
      weight: 1,
      arbitrary: fc.constantFrom(`sha1=${right}`, `sha256:${right}`, `sha256= ${right}`, `sha256=sha256=${right}`, `v1,${right}`, `${right},${right}`),
    },
    { weight: 2, arbitrary: fc.uint8Array({ minLength: 32, maxLength: 32 }).map((d) => `sha256=${hex(d)}`) }, // valid-looking, wrong
    { weight: 1, arbitrary: fc.string({ minLength: 1, maxLength: 12 }).map((other) => `sha256=${expectedDigest(b, s + other)}`) }, // another secret
    { weight: 1, arbitrary: fc.string({ maxLength: 80 }) },
    { weight: 1, arbitrary: fc.constantFrom(null, undefined, '', '   ', 'sha256=') },
  );
}

const input = fc.tuple(body, secret).chain(([b, s]) => fc.tuple(fc.constant(b), fc.constant(s), header(b, s)));

function suite(label: string, load: () => Promise<Webhooks>) {
  describe(`trx-rent/webhooks under fuzz (${label})`, () => {
    let w: Webhooks;
    beforeAll(async () => {
      w = await load();
    });

    it(
      'verifyWebhookSignature never throws and accepts exactly the right signature (10,000 inputs)',
      async () => {
        let accepted = 0;
        const details = await fc.check(
          fc.asyncProperty(input, async ([b, s, h]) => {
            const result = await w.verifyWebhookSignature(b, h, s); // a throw fails the property
            expect(typeof result).toBe('boolean');
            expect(result).toBe(shouldAccept(h, b, s));
            if (result) accepted++;
            // The service's exact format always verifies, for every body and non-empty secret.
            if (s !== '') expect(await w.verifyWebhookSignature(b, `sha256=${expectedDigest(b, s)}`, s)).toBe(true);
          }),
          { numRuns: BUDGET.runs(10_000), interruptAfterTimeLimit: BUDGET.timeMs },
        );
        if (details.failed) throw new Error(fc.defaultReportMessage(details) ?? 'property failed', { cause: details.errorInstance });
        expect(details.numRuns).toBeGreaterThanOrEqual(Math.min(1_000, BUDGET.runs(10_000)));
        expect(accepted).toBeGreaterThan(details.numRuns * 0.1);
      },
      BUDGET.testTimeoutMs,
    );

    it(
      'constructWebhookEvent throws only WebhookSignatureError, and returns only signed, well-formed, fresh events',
      async () => {
        const outcomes = new Map<string, number>();
        const details = await fc.check(
          fc.asyncProperty(input, fc.constantFrom(0, 60, 300, 3600), async ([b, s, h], toleranceSec) => {
            let result: unknown;
            try {
              result = await w.constructWebhookEvent(b, h, s, toleranceSec > 0 ? { toleranceSec, now } : { skipTimestampCheck: true, now });
            } catch (error) {
              expect(error).toBeInstanceOf(w.WebhookSignatureError);
              const reason = (error as nodePath.WebhookSignatureError).reason;
              expect(['missing_header', 'bad_format', 'mismatch', 'too_old', 'invalid_timestamp', 'invalid_payload']).toContain(reason);
              expect((error as Error).message.length).toBeGreaterThan(0);
              outcomes.set(reason, (outcomes.get(reason) ?? 0) + 1);
              if (reason !== 'missing_header' && reason !== 'bad_format' && reason !== 'mismatch') expect(shouldAccept(h, b, s)).toBe(true);
              else expect(shouldAccept(h, b, s)).toBe(false);
              return;
            }
            outcomes.set('ok', (outcomes.get('ok') ?? 0) + 1);
            expect(shouldAccept(h, b, s)).toBe(true);
            const parsed = JSON.parse(new TextDecoder().decode(bodyBytes(b)));
            const e = result as { event: unknown; data: unknown; timestamp: unknown };
            expect(typeof e.event).toBe('string');
            expect(e.event).toBe(parsed.event === 'deposit.confirmed' ? 'deposit.received' : parsed.event);
            expect(e.data).toEqual(parsed.data);
            expect(typeof e.data === 'object' && e.data !== null).toBe(true);
            if (toleranceSec > 0) {
              const t = Number(e.timestamp);
              expect(Number.isFinite(t)).toBe(true);
              const sec = t > 1e12 ? t / 1000 : t;
              expect(Math.abs(nowSec - sec)).toBeLessThanOrEqual(toleranceSec);
            }
          }),
          { numRuns: BUDGET.runs(10_000), interruptAfterTimeLimit: BUDGET.timeMs },
        );
        if (details.failed) throw new Error(fc.defaultReportMessage(details) ?? 'property failed', { cause: details.errorInstance });
        // Every outcome is reached, so the checks after the signature are fuzzed too.
        for (const k of ['ok', 'missing_header', 'bad_format', 'mismatch', 'too_old', 'invalid_timestamp', 'invalid_payload']) {
          expect(outcomes.get(k) ?? 0, k).toBeGreaterThan(0);
        }
      },
      BUDGET.testTimeoutMs,
    );

    it(
      'signWebhookPayload matches node:crypto for every body and non-empty secret',
      async () => {
        await fc.assert(
          fc.asyncProperty(
            body,
            secret.filter((s) => s !== ''),
            async (b, s) => {
              expect(await w.signWebhookPayload(b, s)).toBe(`sha256=${expectedDigest(b, s)}`);
            },
          ),
          { numRuns: BUDGET.runs(2_000), interruptAfterTimeLimit: BUDGET.timeMs },
        );
      },
      BUDGET.testTimeoutMs,
    );

    it(
      'untyped JavaScript input (non-string headers, secrets, bodies) never throws from verify and only WebhookSignatureError from construct',
      async () => {
        const junk = fc.oneof(
          fc.anything(),
          fc.constantFrom(['sha256=00'], 42, {}, Symbol.iterator, () => 'x', new Date(0)),
        );
        await fc.assert(
          fc.asyncProperty(fc.oneof(body, junk), fc.oneof(fc.string(), junk), fc.oneof(secret, junk), async (b, h, s) => {
            const ok = await w.verifyWebhookSignature(b as Body, h as string, s as string);
            expect(typeof ok).toBe('boolean');
            if (ok) expect(typeof s === 'string' && typeof h === 'string').toBe(true);
            try {
              await w.constructWebhookEvent(b as Body, h as string, s as string, { now });
            } catch (error) {
              expect(error).toBeInstanceOf(w.WebhookSignatureError);
            }
          }),
          { numRuns: BUDGET.runs(3_000), interruptAfterTimeLimit: BUDGET.timeMs },
        );
      },
      BUDGET.testTimeoutMs,
    );
  });
}

suite('node:crypto fast path', async () => nodePath);

suite('Web Crypto path, as in browsers and edge workers', async () => {
  const proc = process as { getBuiltinModule?: unknown };
  const saved = proc.getBuiltinModule;
  proc.getBuiltinModule = undefined; // read once, at module evaluation
  try {
    const specifier = '../../src/webhooks/index.js?webcrypto';
    return (await import(/* @vite-ignore */ specifier)) as Webhooks;
  } finally {
    proc.getBuiltinModule = saved;
  }
});

describe('the two paths really differ', () => {
  it('the Web Crypto copy signs with crypto.subtle, the Node copy does not', async () => {
    const copy = (await import(/* @vite-ignore */ '../../src/webhooks/index.js?webcrypto' as string)) as Webhooks;
    expect(copy.WebhookSignatureError).not.toBe(nodePath.WebhookSignatureError);
    const spy = vi.spyOn(crypto.subtle, 'sign');
    try {
      await nodePath.signWebhookPayload('{}', 'k');
      expect(spy).not.toHaveBeenCalled();
      await copy.signWebhookPayload('{}', 'k');
      expect(spy).toHaveBeenCalled();
    } finally {
      spy.mockRestore();
    }
    expect(typeof (process as { getBuiltinModule?: unknown }).getBuiltinModule).toBe('function'); // restored
  });
});
