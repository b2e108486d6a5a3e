/**
 * Payers: who signs a payment, on which chain, with which schemes.
 *
 * - `evmPayer`: USDC on Base (`exact`, EIP-3009 TransferWithAuthorization), signed by viem through
 *   @x402/evm's own scheme client.
 * - `tronPayer`: USDT / USDC / USDD on TRON with `exact_permit` (PaymentPermit), `exact_gasfree`
 *   (GasFreeController) and `exact` (a signed, not broadcast, TRC-20 transfer). TIP-712 is hashed
 *   by viem over normalised addresses (no tronweb) and signed by the payer's {@link Signer} (a
 *   private key, a KMS key, your function), or signed by a TronWeb instance you pass.
 *
 * A private key is kept in a closure: it is never a property, never serialised, never logged,
 * never sent. Addresses are derived locally with @noble (no peer needed to construct a payer).
 * @module
 */
import { secp256k1 } from '@noble/curves/secp256k1.js';
import { keccak_256 } from '@noble/hashes/sha3.js';
import { bytesToHex, hexToBytes } from '@noble/hashes/utils.js';
import { ValidationError } from '../errors/index.js';
import { isTronAddress } from '../utils/address.js';
import { type SignableTransaction, type Signer, signTransactionWith, toSigner, withPermissionId } from '../protocol/signer.js';
import { fromPrivateKey } from '../protocol/signers/local.js';
import { normaliseSignature as normaliseTronSignature } from '../protocol/signers/signature.js';
import { loadViem, loadViemAccounts, loadX402Evm } from '../peers/index.js';
import { type TronSchemeOptions, createTronSchemeClients } from './schemes/tron.js';
import { type TronScheme, TRON_SCHEMES, isEvmNetwork, isTronNetwork } from '../protocol/networks.js';
import type { Offer } from './offers.js';
import type { CoreClientLike, PaymentContext, TronSigner, TronWebLike } from './schemes/types.js';

export type { CoreClientLike, PaymentContext, SchemeClientLike, TronSigner, TronWebLike } from './schemes/types.js';

type Hex = `0x${string}`;

/** A wallet that can pay x402 challenges: made by {@link evmPayer} or {@link tronPayer}. */
export interface Payer {
  readonly kind: 'evm' | 'tron';
  /** 0x address (EVM) or base58 address (TRON). */
  readonly address: string;
  /** Schemes this payer signs. */
  readonly schemes: readonly string[];
  /** Can this payer sign this offer (network family, scheme, transfer method)? */
  supports(offer: Pick<Offer, 'scheme' | 'network' | 'extra'>): boolean;
  /** @internal Registers this payer's scheme clients on a per-call x402 client. */
  register(client: CoreClientLike, context: PaymentContext): Promise<void>;
}

// ---- keys ----

function normaliseKey(privateKey: string, field: string): string {
  if (typeof privateKey !== 'string') throw invalidKey(field);
  const hex = privateKey.trim().replace(/^0x/i, '');
  if (!/^[0-9a-fA-F]{64}$/.test(hex)) throw invalidKey(field);
  const n = BigInt(`0x${hex}`);
  if (n === 0n || n >= secp256k1.Point.Fn.ORDER) throw invalidKey(field);
  return hex.toLowerCase();
}

function invalidKey(field: string): ValidationError {
  // Never echo the value: it may be a real key with a typo.
  return new ValidationError({
    code: 'VALIDATION_ERROR',
    message: `${field} must be a secp256k1 private key: 64 hex characters, with or without 0x`,
    details: { field },
  });
}

/** EIP-55 checksummed address of a private key (no viem). */
export function evmAddressOfKey(privateKeyHex: string): Hex {
  const pub = secp256k1.getPublicKey(hexToBytes(normaliseKey(privateKeyHex, 'privateKey')), false);
  return checksumAddress(bytesToHex(keccak_256(pub.subarray(1)).subarray(12)));
}

function checksumAddress(hex40: string): Hex {
  const lower = hex40.toLowerCase().replace(/^0x/, '');
  const hash = bytesToHex(keccak_256(new TextEncoder().encode(lower)));
  let out = '0x';
  for (let i = 0; i < 40; i++) out += Number.parseInt(hash[i]!, 16) >= 8 ? lower[i]!.toUpperCase() : lower[i]!;
  return out as Hex;
}

const redacted = { toJSON: () => '[payer]' };

// ---- EVM ----

/** A viem LocalAccount, or anything with its `address` and `signTypedData`. */
export interface EvmAccountLike {
  address: Hex;
  /** Signs EIP-712 typed data (the EIP-3009 authorization). */
  signTypedData(args: { domain: Record<string, unknown>; types: Record<string, unknown>; primaryType: string; message: Record<string, unknown> }): Promise<Hex>;
}

/** Options of {@link evmPayer}: a private key (0x hex) or a viem account; never both. */
export type EvmPayerOptions = { privateKey: string; account?: never } | { account: EvmAccountLike; privateKey?: never };

/** USDC on Base (`exact`, EIP-3009). Signing goes through @x402/evm with a viem account. */
export function evmPayer(options: EvmPayerOptions): Payer {
  const account = options.account;
  const key = account ? undefined : normaliseKey(options.privateKey as string, 'privateKey');
  if (account && !/^0x[0-9a-fA-F]{40}$/.test(String(account.address))) {
    throw new ValidationError({ code: 'VALIDATION_ERROR', message: 'account.address must be a 0x EVM address', details: { field: 'account' } });
  }
  const address = account ? checksumAddress(account.address) : evmAddressOfKey(key!);
  return Object.freeze({
    ...redacted,
    kind: 'evm' as const,
    address,
    schemes: ['exact'] as const,
    supports(offer: Pick<Offer, 'scheme' | 'network' | 'extra'>) {
      if (offer.scheme !== 'exact' || !isEvmNetwork(offer.network)) return false;
      // Only EIP-3009: Permit2 flows can require an approve transaction, which we never send.
      const method = offer.extra?.assetTransferMethod;
      return method === undefined || method === 'eip3009';
    },
    async register(client: CoreClientLike) {
      const signer = account ?? (await loadViemAccounts()).privateKeyToAccount(`0x${key}`);
      const { registerExactEvmScheme } = await loadX402Evm();
      registerExactEvmScheme(client as never, { signer: signer as never });
    },
  });
}

// ---- TRON ----

/**
 * Options of {@link tronPayer}: a private key (hex), a TronWeb instance holding one, or any
 * {@link Signer} (`trx-rent/signers`: a KMS key, your own signing function), plus the scheme
 * options (full node, GasFree relayer, contracts) and which schemes to offer.
 */
export type TronPayerOptions = (
  | { privateKey: string; tronWeb?: never; address?: never; signer?: never }
  | { tronWeb: TronWebLike; address?: string; privateKey?: never; signer?: never }
  | { signer: Signer; privateKey?: never; tronWeb?: never; address?: never }
) &
  TronSchemeOptions & {
    /** Schemes to offer, in no particular order (the client chooses). Default: all three. */
    schemes?: readonly TronScheme[];
  };

function normaliseSignature(sig: unknown): Hex {
  const text = String(sig ?? '');
  const hex = text.replace(/^0x/i, '');
  if (!/^[0-9a-fA-F]{130}$/.test(hex)) throw new Error('signer returned something that is not a 65-byte signature');
  return `0x${hex.toLowerCase()}`;
}

/** USDT, USDC, USDD on TRON: `exact_permit`, `exact_gasfree`, `exact`. */
export function tronPayer(options: TronPayerOptions): Payer {
  const tronWeb = options.tronWeb;
  // Keys and signers become one Signer: the key stays in the local signer's closure.
  const own: Signer | undefined = tronWeb
    ? undefined
    : options.signer !== undefined
      ? toSigner(options.signer, 'signer')
      : fromPrivateKey(normaliseKey(options.privateKey as string, 'privateKey'));
  let address: string;
  if (tronWeb) {
    const fromInstance = tronWeb.defaultAddress?.base58 || undefined;
    address = options.address ?? fromInstance ?? '';
    if (!isTronAddress(address)) {
      throw new ValidationError({
        code: 'VALIDATION_ERROR',
        message: 'tronPayer({ tronWeb }) needs a TronWeb with a default address, or { address }',
        details: { field: 'address' },
      });
    }
  } else {
    address = own!.address;
  }
  const schemes = [...(options.schemes ?? TRON_SCHEMES)];
  for (const s of schemes) {
    if (!(TRON_SCHEMES as readonly string[]).includes(s)) {
      throw new ValidationError({ code: 'VALIDATION_ERROR', message: `Unknown TRON scheme: ${s}`, details: { field: 'schemes' } });
    }
  }

  const signer: TronSigner = {
    address,
    tronWeb,
    async signTypedData(data) {
      if (tronWeb) {
        // tronweb derives EIP712Domain itself; domain and message already use hex addresses.
        return normaliseSignature(await tronWeb.trx.signTypedData(data.domain, data.types, data.message));
      }
      // TIP-712 is EIP-712 over normalised addresses: viem hashes it, the signer signs the digest.
      const { hashTypedData } = await loadViem();
      const digest = hexToBytes(
        hashTypedData({ domain: data.domain, types: data.types, primaryType: data.primaryType, message: data.message } as never).slice(2),
      );
      return `0x${bytesToHex(normaliseTronSignature(await own!.signDigest(digest), digest, address))}`;
    },
    async signTransaction(tx) {
      if (tronWeb) {
        const signed = (await tronWeb.trx.sign(tx)) as { signature?: string[] };
        if (!Array.isArray(signed?.signature) || signed.signature.length === 0) throw new Error('TronWeb returned an unsigned transaction');
        return { ...tx, signature: signed.signature };
      }
      const unsigned = tx as unknown as SignableTransaction;
      const named = own!.permissionId ? withPermissionId(unsigned, own!.permissionId) : unsigned;
      return (await signTransactionWith(own!, named)) as unknown as typeof tx & { signature: string[] };
    },
  };

  return Object.freeze({
    ...redacted,
    kind: 'tron' as const,
    address,
    schemes,
    supports(offer: Pick<Offer, 'scheme' | 'network' | 'extra'>) {
      return isTronNetwork(offer.network) && (schemes as string[]).includes(offer.scheme);
    },
    async register(client: CoreClientLike, context: PaymentContext) {
      for (const scheme of createTronSchemeClients(signer, schemes, options, context)) client.register('tron:*', scheme);
    },
  });
}
