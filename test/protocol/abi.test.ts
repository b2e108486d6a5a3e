/**
 * The one ABI encoder (src/protocol/abi.ts), held to an implementation we did not write:
 * tronweb's own ABI coder (ethers' AbiCoder underneath) encodes the same arguments to the same
 * words, and decodes our Error(string) payloads to the same reason.
 */
import { utils } from 'tronweb';
import { describe, expect, it } from 'vitest';
import {
  ERROR_STRING_SELECTOR,
  decodeErrorString,
  decodeTransferCall,
  encodeErrorString,
  encodeTransferArgs,
  encodeTransferCall,
  uintWord,
} from '../../src/protocol/abi.js';

const TO = 'TLa2f6VPqDgRE67v1736s7bJ8Ray5wYjU7';

describe('ABI words', () => {
  it('encodes transfer(address,uint256) exactly as tronweb does', () => {
    for (const amount of [1n, 10_000_000n, 2n ** 255n, 2n ** 256n - 1n]) {
      const theirs = utils.abi.encodeParams(['address', 'uint256'], [TO, amount.toString()]).replace(/^0x/, '');
      expect(encodeTransferArgs(TO, amount)).toBe(theirs);
      expect(decodeTransferCall(encodeTransferCall(TO, amount))).toEqual({ to: TO, amount });
    }
  });

  it('refuses what is not a uint256', () => {
    expect(() => uintWord(-1n)).toThrow(RangeError);
    expect(() => uintWord(2n ** 256n)).toThrow(RangeError);
  });

  it('does not read call data with dirty address bits or the wrong length as a transfer', () => {
    const good = encodeTransferCall(TO, 5n);
    expect(decodeTransferCall(`${good.slice(0, 8)}ff${good.slice(10)}`)).toBeUndefined();
    expect(decodeTransferCall(good.slice(0, -2))).toBeUndefined();
    expect(decodeTransferCall(`70a08231${good.slice(8)}`)).toBeUndefined();
  });

  it("Error(string) payloads agree with tronweb's decoder both ways", () => {
    for (const reason of ['', 'Blacklisted', 'ERC20: transfer amount exceeds balance', 'é ✓ unicode']) {
      const ours = encodeErrorString(reason);
      expect(ours.startsWith(ERROR_STRING_SELECTOR)).toBe(true);
      const [theirs] = utils.abi.decodeParams([], ['string'], `0x${ours.slice(8)}`, false) as unknown as [string];
      expect(theirs).toBe(reason);
      const encoded = utils.abi.encodeParams(['string'], [reason]).replace(/^0x/, '');
      expect(decodeErrorString(ERROR_STRING_SELECTOR + encoded)).toBe(reason);
    }
    expect(decodeErrorString('08c379a0')).toBeUndefined();
    expect(decodeErrorString('deadbeef')).toBeUndefined();
  });
});
