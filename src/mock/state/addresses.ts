/**
 * The simulated service's own addresses on the simulated chain: the platform's deposit address
 * and each provider's delegating address. Fixed (the same for every seed), so a saved world, a
 * script or a test can name them.
 * @module
 */
import { sha256 } from '@noble/hashes/sha2.js';
import { bytesToHex } from '@noble/hashes/utils.js';
import { toTronAddress } from '../../utils/address.js';
import { labelAddress } from '../chain/chain.js';

const providerAddresses = new Map<string, string>();

/** A provider's delegating address on the simulated chain (the same for every seed; cached: a hash and base58 per fill showed in profiles). */
export function providerAddress(provider: string): string {
  let address = providerAddresses.get(provider);
  if (address === undefined) {
    address = labelAddress(`provider ${provider}`);
    if (providerAddresses.size < 1_000) providerAddresses.set(provider, address);
  }
  return address;
}

/** A fixed, valid TRON address for the simulated platform (the same for every seed). */
export const PLATFORM_ADDRESS = toTronAddress(`41${bytesToHex(sha256(new TextEncoder().encode('trx-rent mock platform deposit address'))).slice(0, 40)}`);
