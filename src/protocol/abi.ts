/**
 * The one ABI encoder and decoder of this package: the few Solidity ABI shapes a TRC-20 transfer
 * and a node's answers use (32-byte words, addresses, `transfer(address,uint256)`,
 * `balanceOf(address)`, and the `Error(string)` revert payload). The SDK's transfer engine, the
 * transaction builder and the mock's simulated node all encode with it, so a word is padded
 * one way everywhere. No dependency: TRON addresses become their 20-byte EVM form here.
 * @module
 */
import { toTronAddress, tronAddressToHex } from '../utils/address.js';

/** The 4-byte selectors (hex, no 0x) of the TRC-20 calls this package makes. */
export const TRC20_SELECTORS = {
  'transfer(address,uint256)': 'a9059cbb',
  'balanceOf(address)': '70a08231',
  'decimals()': '313ce567',
} as const;

/** The selector of `Error(string)`, the payload of a Solidity `revert("reason")`. */
export const ERROR_STRING_SELECTOR = '08c379a0';

/** One 32-byte word (64 hex) holding an unsigned integer; a negative or oversized value is refused. */
export function uintWord(value: bigint | number): string {
  const n = BigInt(value);
  if (n < 0n || n >= 1n << 256n) throw new RangeError(`not a uint256: ${String(value)}`);
  return n.toString(16).padStart(64, '0');
}

/** One 32-byte word holding a TRON address (its 20-byte EVM form, left-padded). */
export function addressWord(base58: string): string {
  return tronAddressToHex(base58).slice(2).padStart(64, '0');
}

/** ABI arguments of `transfer(address,uint256)`, without the selector. */
export function encodeTransferArgs(to: string, amount: bigint): string {
  return addressWord(to) + uintWord(amount);
}

/** Call data of `transfer(address,uint256)`: selector and arguments (hex, no 0x). */
export function encodeTransferCall(to: string, amount: bigint): string {
  return TRC20_SELECTORS['transfer(address,uint256)'] + encodeTransferArgs(to, amount);
}

/** The `i`-th 32-byte word of hex data (no 0x) as a bigint; undefined when the data is too short or not hex. */
export function readUintWord(hex: string, i = 0): bigint | undefined {
  const word = hex.slice(i * 64, i * 64 + 64);
  return /^[0-9a-fA-F]{64}$/.test(word) ? BigInt(`0x${word}`) : undefined;
}

/** The arguments of `transfer(address,uint256)` call data (with its selector), or undefined when it is not one. */
export function decodeTransferCall(data: string): { to: string; amount: bigint } | undefined {
  const hex = data.replace(/^0x/i, '').toLowerCase();
  if (!hex.startsWith(TRC20_SELECTORS['transfer(address,uint256)']) || hex.length !== 8 + 128) return undefined;
  const args = hex.slice(8);
  if (!/^0{24}/.test(args)) return undefined;
  const amount = readUintWord(args, 1);
  if (amount === undefined) return undefined;
  try {
    return { to: toTronAddress(`41${args.slice(24, 64)}`), amount };
  } catch {
    return undefined;
  }
}

/** One ABI-encoded `string` (a lone dynamic argument or return value: offset, length, the bytes padded to words). */
export function encodeString(text: string): string {
  const bytes = new TextEncoder().encode(text);
  let hex = '';
  for (const b of bytes) hex += b.toString(16).padStart(2, '0');
  return uintWord(32) + uintWord(bytes.length) + hex.padEnd(Math.ceil(hex.length / 64) * 64, '0');
}

/** `Error(string)` revert data for `reason` (what a Solidity `require(…, reason)` returns). */
export function encodeErrorString(reason: string): string {
  return ERROR_STRING_SELECTOR + encodeString(reason);
}

/** The reason in `Error(string)` revert data (selector included), or undefined when the data is not one. */
export function decodeErrorString(data: string): string | undefined {
  const hex = data.replace(/^0x/i, '');
  if (!hex.toLowerCase().startsWith(ERROR_STRING_SELECTOR)) return undefined;
  const body = hex.slice(8);
  const offset = readUintWord(body, 0);
  if (offset === undefined || offset % 32n !== 0n || offset > BigInt(body.length / 2)) return undefined;
  const start = Number(offset) * 2;
  const length = readUintWord(body.slice(start), 0);
  if (length === undefined || BigInt(start + 64) + length * 2n > BigInt(body.length)) return undefined;
  const text = body.slice(start + 64, start + 64 + Number(length) * 2);
  const bytes = new Uint8Array(text.length / 2);
  for (let i = 0; i < bytes.length; i++) bytes[i] = Number.parseInt(text.slice(i * 2, i * 2 + 2), 16);
  return new TextDecoder().decode(bytes);
}
