/**
 * Networks, tokens and contracts the x402 client and the mock agree on. Pure data and string
 * functions: no viem, no tronweb.
 *
 * TRON network ids come in at least five spellings (`tron:mainnet`, `tron:0x2b6653dc`,
 * `tron:728126428`, `tron:27Lqcw`, …). Every one normalises to the decimal chain id form
 * (`tron:728126428`), which is also the TIP-712 `chainId`.
 * @module
 */
import { isTronAddress } from '../utils/address.js';

/** TIP-712 chain id of each TRON network (mainnet is 0x2b6653dc). */
export const TRON_CHAIN_IDS = {
  mainnet: 728_126_428,
  nile: 3_448_148_188,
  shasta: 2_494_104_990,
} as const;
/** `mainnet`, `nile` or `shasta`. */
export type TronNetworkName = keyof typeof TRON_CHAIN_IDS;

/** Canonical CAIP-2 ids of the networks this package pays on, as {@link normaliseNetwork} returns them. */
export const NETWORKS = {
  TRON_MAINNET: 'tron:728126428',
  TRON_NILE: 'tron:3448148188',
  TRON_SHASTA: 'tron:2494104990',
  BASE: 'eip155:8453',
  BASE_SEPOLIA: 'eip155:84532',
} as const;

const TRON_REFS: Record<string, TronNetworkName> = {
  mainnet: 'mainnet',
  '728126428': 'mainnet',
  '0x2b6653dc': 'mainnet',
  '27Lqcw': 'mainnet',
  nile: 'nile',
  '3448148188': 'nile',
  '0xcd8690dc': 'nile',
  '6FhfKq': 'nile',
  shasta: 'shasta',
  '2494104990': 'shasta',
  '0x94a9059e': 'shasta',
  '4oPwXB': 'shasta',
};

// v1-style short names some TRON services use.
const TRON_SHORT: Record<string, TronNetworkName> = {
  tron: 'mainnet',
  'tron-mainnet': 'mainnet',
  'tron-nile': 'nile',
  'tron-shasta': 'shasta',
};

// x402 v1 short names of the EVM networks this package knows, and back.
const EVM_V1: Record<string, number> = { base: 8453, 'base-sepolia': 84532 };

/** `table[key]` only when `key` is the table's own property: `constructor`, `__proto__` or `toString` are not networks. */
function own<T>(table: Record<string, T>, key: string): T | undefined {
  return Object.hasOwn(table, key) ? table[key] : undefined;
}

/** The TRON network a network id means, whatever its spelling; undefined when not TRON. */
export function tronNetworkName(network: string): TronNetworkName | undefined {
  const id = network.trim();
  const short = own(TRON_SHORT, id.toLowerCase());
  if (short) return short;
  if (!/^tron:/i.test(id)) return undefined;
  const ref = id.slice(5);
  // Genesis-hash refs are case-sensitive base58; names and hex are not.
  return own(TRON_REFS, ref) ?? own(TRON_REFS, ref.toLowerCase());
}

/** TIP-712 chain id of a TRON network id (any alias), or undefined. */
export function tronChainId(network: string): number | undefined {
  const name = tronNetworkName(network);
  return name ? TRON_CHAIN_IDS[name] : undefined;
}

/** EVM chain id of `eip155:N` or a known v1 name (`base`), or undefined. */
export function evmChainId(network: string): number | undefined {
  const id = network.trim().toLowerCase();
  const v1 = own(EVM_V1, id);
  if (v1 !== undefined) return v1;
  const match = /^eip155:(\d+)$/.exec(id);
  return match ? Number(match[1]) : undefined;
}

/**
 * One canonical id per network: `tron:<decimal chain id>` for every TRON alias, `eip155:<id>`
 * for EVM (v1 short names included). Unknown ids come back trimmed, unchanged.
 */
export function normaliseNetwork(network: string): string {
  const tron = tronChainId(network);
  if (tron !== undefined) return `tron:${tron}`;
  const evm = evmChainId(network);
  if (evm !== undefined) return `eip155:${evm}`;
  return network.trim();
}

/** True for any spelling of a TRON network id (see {@link tronNetworkName}). */
export function isTronNetwork(network: string): boolean {
  return tronNetworkName(network) !== undefined;
}

/** True for `eip155:<id>` or a known x402 v1 EVM name (`base`, `base-sepolia`). */
export function isEvmNetwork(network: string): boolean {
  return evmChainId(network) !== undefined;
}

/** Human label for a network id: `TRON`, `TRON nile`, `Base`, `Base Sepolia`, else the id as given. */
export function networkLabel(network: string): string {
  const tron = tronNetworkName(network);
  if (tron) return tron === 'mainnet' ? 'TRON' : `TRON ${tron}`;
  const evm = evmChainId(network);
  if (evm === 8453) return 'Base';
  if (evm === 84532) return 'Base Sepolia';
  return network;
}

/**
 * The stablecoins this package pays with.
 * @inline
 */
export type StablecoinSymbol = 'USDT' | 'USDC' | 'USDD';

/** A token this package can pay with, on one network. */
export interface TokenInfo {
  /** `USDT`, `USDC` or `USDD`. */
  symbol: StablecoinSymbol;
  /** Canonical network id. */
  network: string;
  /** Contract: base58 on TRON, checksummed 0x on EVM. */
  address: string;
  /** Decimals of the token's atomic unit (6 for USDT/USDC, 18 for USDD). */
  decimals: number;
  /** EIP-712 / TIP-712 domain name of the token (EIP-3009 tokens). */
  name?: string;
  /** EIP-712 / TIP-712 domain version of the token (EIP-3009 tokens). */
  version?: string;
}

/**
 * Tokens this package will pay with. All are USD stablecoins, valued 1:1 with USD for spend
 * limits. USDD on TRON mainnet has two contracts in use (the original and USDD 2.0); both are
 * listed.
 */
export const KNOWN_TOKENS: readonly TokenInfo[] = [
  { symbol: 'USDT', network: NETWORKS.TRON_MAINNET, address: 'TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6t', decimals: 6, name: 'Tether USD', version: '1' },
  { symbol: 'USDC', network: NETWORKS.TRON_MAINNET, address: 'TEkxiTehnzSmSe2XqrBj4w32RUN966rdz8', decimals: 6, name: 'USD Coin', version: '1' },
  { symbol: 'USDD', network: NETWORKS.TRON_MAINNET, address: 'TPYmHEhy5n8TCEfYGqW2rPxsghSfzghPDn', decimals: 18, name: 'Decentralized USD', version: '1' },
  { symbol: 'USDD', network: NETWORKS.TRON_MAINNET, address: 'TXDk8mbtRbXeYuMNS83CfKPaYYT8XWv9Hz', decimals: 18, name: 'Decentralized USD', version: '1' },
  { symbol: 'USDT', network: NETWORKS.TRON_NILE, address: 'TXYZopYRdj2D9XRtbG411XZZ3kM5VkAeBf', decimals: 6, name: 'Tether USD', version: '1' },
  { symbol: 'USDT', network: NETWORKS.TRON_SHASTA, address: 'TG3XXyExBkPp9nzdajDZsozEu4BkaSJozs', decimals: 6, name: 'Tether USD', version: '1' },
  { symbol: 'USDC', network: NETWORKS.BASE, address: '0x833589fCD6eDb6E08f4c7C32D4f71b54bdA02913', decimals: 6, name: 'USD Coin', version: '2' },
  { symbol: 'USDC', network: NETWORKS.BASE_SEPOLIA, address: '0x036CbD53842c5426634e7929541eC2318f3dCF7e', decimals: 6, name: 'USDC', version: '2' },
];

function sameAddress(a: string, b: string): boolean {
  return a.startsWith('0x') || b.startsWith('0x') ? a.toLowerCase() === b.toLowerCase() : a === b;
}

/**
 * The known token at `asset` on `network` (any alias), or undefined. `extra` tokens are searched
 * first (default: none). EVM addresses compare case-insensitively, base58 exactly.
 */
export function findToken(asset: string, network: string, extra: readonly TokenInfo[] = []): TokenInfo | undefined {
  const canonical = normaliseNetwork(network);
  return [...extra, ...KNOWN_TOKENS].find((t) => t.network === canonical && sameAddress(t.address, asset));
}

/** The (first) known token with `symbol` on `network`. */
export function tokenBySymbol(symbol: string, network: string): TokenInfo | undefined {
  const canonical = normaliseNetwork(network);
  return KNOWN_TOKENS.find((t) => t.network === canonical && t.symbol === symbol.toUpperCase());
}

/** BankofAI PaymentPermit contract per TRON network (TIP-712 verifyingContract of exact_permit). */
export const PAYMENT_PERMIT_CONTRACTS: Record<TronNetworkName, string> = {
  mainnet: 'TT8rEWbCoNX7vpEUauxb7rWJsTgs8vDLAn',
  nile: 'TFxDcGvS7zfQrS1YzcCMp673ta2NHHzsiH',
  shasta: 'TR2XninQ3jsvRRLGTifFyUHTBysffooUjt',
};

/** GasFreeController per TRON network (TIP-712 verifyingContract of exact_gasfree). */
export const GASFREE_CONTROLLERS: Record<TronNetworkName, string> = {
  mainnet: 'TFFAMQLZybALaLb4uxHA9RBE7pxhUAjF3U',
  nile: 'THQGuFzL87ZqhxkgqYEryRAd7gqFqL5rdc',
  shasta: 'TQghdCeVDA6CnuNVTUhfaAyPfTetqZWNpm',
};

/** Default GasFree relayer per TRON network. */
export const GASFREE_RELAYERS: Record<TronNetworkName, string> = {
  mainnet: 'https://facilitator.bankofai.io/mainnet',
  nile: 'https://facilitator.bankofai.io/nile',
  shasta: 'https://facilitator.bankofai.io/shasta',
};

/** Default full node per TRON network (used only by the `exact` scheme, for a reference block). */
export const TRON_FULL_NODES: Record<TronNetworkName, string> = {
  mainnet: 'https://api.trongrid.io',
  nile: 'https://nile.trongrid.io',
  shasta: 'https://api.shasta.trongrid.io',
};

/** The TRON zero address (base58 of 0x41 + 20 zero bytes). */
export const TRON_ZERO_ADDRESS = 'T9yD14Nj9j7xAB4dbGeiX9h8unkKHxuWwb';

/**
 * TRON schemes this package signs: `exact_permit` (BankofAI PaymentPermit, TIP-712),
 * `exact_gasfree` (GasFreeController PermitTransfer, TIP-712) and `exact` (a TRC-20 transfer
 * signed locally; the facilitator broadcasts it).
 */
export const TRON_SCHEMES = ['exact_permit', 'exact_gasfree', 'exact'] as const;
/** One of {@link TRON_SCHEMES}. */
export type TronScheme = (typeof TRON_SCHEMES)[number];

/** True for a base58 TRON address or a 0x EVM address. */
export function isAddressLike(value: string): boolean {
  return isTronAddress(value) || /^0x[0-9a-fA-F]{40}$/.test(value);
}
