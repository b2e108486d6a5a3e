import fc from 'fast-check';
import { TronWeb } from 'tronweb';
import { describe, expect, it } from 'vitest';
import { isTronAddress, toTronAddress, tronAddressToHex } from '../../src/index.js';
import { tronAddressToEvmHex } from '../../src/utils/address.js';
import { BUDGET, hex } from './budget.js';

/**
 * `isTronAddress` (base58check, no tronweb) against tronweb's own `TronWeb.isAddress` on 10,000
 * generated inputs.
 *
 * What each accepts, and the one intentional difference:
 * - ours: base58 only — 34 characters, `T…`, decoding to 0x41 + 20 bytes with a valid checksum;
 * - tronweb: the same base58 check, and ALSO any 42-character string that is hex for 0x41 + 20
 *   bytes (`41a614…`), which it converts to base58 first.
 * We keep hex out of `isTronAddress` on purpose (the API, the schemas and the CLI take base58;
 * `toTronAddress` converts hex explicitly). So the oracle is
 *   isTronAddress(s) === (TronWeb.isAddress(s) && s.length !== 42)
 * and for the 42-character hex forms: TronWeb.isAddress(s) === (toTronAddress(s) succeeds).
 * A further difference of `toTronAddress` only: it also takes the EVM form `0x` + 40 hex, which
 * tronweb's isAddress rejects (length 42, not hex).
 */

const B58 = '123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz';
const NON_B58 = '0OIl+/= -_.\u00e9\u0000';

function oracle(s: string): boolean {
  return TronWeb.isAddress(s) && s.length !== 42;
}

const payload = fc.uint8Array({ minLength: 20, maxLength: 20 });
const validAddress = payload.map((bytes) => toTronAddress(`41${hex(bytes)}`));
const anyChar = fc.constantFrom(...(B58 + NON_B58 + 'T41x0').split(''));

/** A valid address, then one of: a character substitution, a deletion, an insertion, a swap, a truncation or extension. */
const mutated = fc
  .tuple(validAddress, fc.nat(40), fc.nat(40), anyChar, fc.integer({ min: 0, max: 6 }), fc.string({ maxLength: 4 }))
  .map(([addr, i, j, c, kind, extra]) => {
    const at = i % addr.length;
    switch (kind) {
      case 0:
        return addr.slice(0, at) + c + addr.slice(at + 1);
      case 1:
        return addr.slice(0, at) + addr.slice(at + 1);
      case 2:
        return addr.slice(0, at) + c + addr.slice(at);
      case 3: {
        const b = j % addr.length;
        const chars = addr.split('');
        [chars[at], chars[b]] = [chars[b]!, chars[at]!];
        return chars.join('');
      }
      case 4:
        return addr.slice(0, Math.max(0, addr.length - 1 - (j % 6)));
      case 5:
        return addr + extra;
      default:
        return extra + addr;
    }
  });

/** Base58 strings of the right shape: almost always a bad checksum, sometimes another prefix. */
const base58Shaped = fc
  .tuple(fc.constantFrom('T', 'T', 'T', '1', 'S', 'U', 'W'), fc.array(fc.constantFrom(...B58.split('')), { minLength: 31, maxLength: 35 }))
  .map(([first, rest]) => first + rest.join(''));

/** Addresses over other version bytes (0xa0 testnet-era, 0x00 bitcoin, …) with a valid checksum. */
const otherPrefix = fc
  .tuple(
    fc.integer({ min: 0, max: 255 }).filter((b) => b !== 0x41),
    fc.uint8Array({ minLength: 20, maxLength: 20 }),
  )
  .map(([prefix, bytes]) => TronWeb.address.fromHex(`${prefix.toString(16).padStart(2, '0')}${hex(bytes)}`));

/** Hex forms: 41-hex (tronweb accepts), 0x-EVM, other prefixes, wrong lengths, upper case. */
const hexForm = fc
  .tuple(fc.constantFrom('41', '41', '0x', '0x41', 'a0', '00', ''), fc.uint8Array({ minLength: 19, maxLength: 21 }), fc.boolean())
  .map(([prefix, bytes, upper]) => {
    const h = prefix + hex(bytes);
    return upper ? h.toUpperCase() : h;
  });

const input = fc.oneof(
  { weight: 3, arbitrary: validAddress },
  { weight: 4, arbitrary: mutated },
  { weight: 1, arbitrary: base58Shaped },
  { weight: 1, arbitrary: otherPrefix },
  { weight: 2, arbitrary: hexForm },
  { weight: 1, arbitrary: fc.string({ maxLength: 50 }) },
  { weight: 1, arbitrary: fc.string({ unit: 'binary', minLength: 30, maxLength: 45 }) },
);

describe('isTronAddress vs tronweb', () => {
  it(
    'our encoder and tronweb agree on every random 20-byte payload',
    () => {
      fc.assert(
        fc.property(payload, (bytes) => {
          const h = `41${hex(bytes)}`;
          const ours = toTronAddress(h);
          expect(ours).toBe(TronWeb.address.fromHex(h));
          expect(TronWeb.address.toHex(ours)).toBe(h);
          expect(tronAddressToHex(ours)).toBe(h);
          expect(tronAddressToEvmHex(ours)).toBe(`0x${hex(bytes)}`);
          expect(toTronAddress(`0x${hex(bytes)}`)).toBe(ours);
          expect(toTronAddress(h.toUpperCase())).toBe(ours);
          expect(isTronAddress(ours)).toBe(true);
        }),
        { numRuns: BUDGET.runs(2_000), interruptAfterTimeLimit: BUDGET.timeMs },
      );
    },
    BUDGET.testTimeoutMs,
  );

  it(
    'agrees with TronWeb.isAddress on 10,000 random and mutated inputs (base58 only on our side)',
    () => {
      let accepted = 0;
      let hex42 = 0;
      const details = fc.check(
        fc.property(input, (s) => {
          const ours = isTronAddress(s);
          if (ours) accepted++;
          expect(ours).toBe(oracle(s));
          if (s.length === 42 && /^[0-9a-fA-F]+$/.test(s)) {
            hex42++;
            let convertible = true;
            try {
              expect(isTronAddress(toTronAddress(s))).toBe(true);
            } catch {
              convertible = false;
            }
            expect(convertible).toBe(TronWeb.isAddress(s));
          }
        }),
        { numRuns: BUDGET.runs(10_000), interruptAfterTimeLimit: BUDGET.timeMs },
      );
      if (details.failed) throw new Error(fc.defaultReportMessage(details) ?? 'property failed', { cause: details.errorInstance });
      // The mix exercises both outcomes (not just a sea of rejections).
      expect(details.numRuns).toBeGreaterThanOrEqual(Math.min(1_000, BUDGET.runs(10_000)));
      expect(accepted).toBeGreaterThan(details.numRuns * 0.1);
      expect(hex42).toBeGreaterThan(0);
    },
    BUDGET.testTimeoutMs,
  );

  it(
    'rejects every non-string',
    () => {
      fc.assert(
        fc.property(
          fc.anything().filter((v) => typeof v !== 'string'),
          (v) => {
            expect(isTronAddress(v)).toBe(false);
          },
        ),
        { numRuns: BUDGET.runs(1_000), interruptAfterTimeLimit: BUDGET.timeMs },
      );
    },
    BUDGET.testTimeoutMs,
  );
});
