import { describe, expect, it } from 'vitest';
import { isTronAddress, toTronAddress, tronAddressToHex } from '../../src/index.js';
import { tronAddressToEvmHex } from '../../src/utils/address.js';

const USDT = 'TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6t';

describe('isTronAddress', () => {
  it('accepts valid base58check addresses', () => {
    expect(isTronAddress(USDT)).toBe(true);
    expect(isTronAddress('T9yD14Nj9j7xAB4dbGeiX9h8unkKHxuWwb')).toBe(true); // zero address
  });

  it('rejects a bad checksum, wrong prefix, wrong length, bad alphabet and non-strings', () => {
    expect(isTronAddress('TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6u')).toBe(false); // last char changed
    expect(isTronAddress('TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6')).toBe(false);
    expect(isTronAddress('TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6tt')).toBe(false);
    expect(isTronAddress('TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj0t')).toBe(false); // 0 not in base58
    expect(isTronAddress('1R7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6t')).toBe(false);
    expect(isTronAddress('0xa614f803b6fd780986a42c78ec9c7f77e6ded13c')).toBe(false);
    expect(isTronAddress(undefined)).toBe(false);
    expect(isTronAddress(42)).toBe(false);
  });

  it('converts between base58 and hex forms', () => {
    expect(tronAddressToEvmHex(USDT)).toBe('0xa614f803b6fd780986a42c78ec9c7f77e6ded13c');
    expect(tronAddressToHex(USDT)).toBe('41a614f803b6fd780986a42c78ec9c7f77e6ded13c');
    expect(toTronAddress('41a614f803b6fd780986a42c78ec9c7f77e6ded13c')).toBe(USDT);
    expect(toTronAddress('0xa614f803b6fd780986a42c78ec9c7f77e6ded13c')).toBe(USDT);
    expect(() => toTronAddress('nope')).toThrow(TypeError);
  });
});
