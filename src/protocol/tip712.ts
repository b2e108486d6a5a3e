/**
 * TIP-712 typed data for the TRON x402 schemes. TIP-712 is EIP-712 over 20-byte hex addresses
 * (base58 decoded, 0x41 prefix dropped) with the TRON chain id, so any EIP-712 signer (viem)
 * produces the signature tronweb would, and any EIP-712 verifier recovers it. Payload JSON keeps
 * base58 addresses; only the signed message uses hex. Shared by the client (signing) and the
 * mock (verification).
 * @module
 */
import { tronAddressToEvmHex } from '../utils/address.js';

type Hex = `0x${string}`;

/**
 * One field of an EIP-712 struct type.
 * @inline
 */
export interface TypedField {
  /** Field name. */
  name: string;
  /** Solidity type, e.g. `address`, `uint256`, or another struct's name. */
  type: string;
}

/**
 * EIP-712 typed data, ready for viem's `signTypedData` / `verifyTypedData`: addresses in the
 * message are 0x hex (TRON addresses without the 0x41 prefix), integers are bigints.
 */
export interface TypedDataDefinition {
  /** Signing domain; `chainId` is the TRON (TIP-712) or EVM chain id, `verifyingContract` 0x hex. */
  domain: { name: string; version?: string; chainId: number; verifyingContract: Hex };
  /** Struct types by name (without `EIP712Domain`). */
  types: Record<string, TypedField[]>;
  /** The struct that is signed. */
  primaryType: string;
  /** The values signed. */
  message: Record<string, unknown>;
}

// ---- exact_permit: BankofAI PaymentPermit ----

/** EIP-712 types of the BankofAI PaymentPermit (`exact_permit`); primary type `PaymentPermitDetails`. */
export const PAYMENT_PERMIT_TYPES = {
  PermitMeta: [
    { name: 'kind', type: 'uint8' },
    { name: 'paymentId', type: 'bytes16' },
    { name: 'nonce', type: 'uint256' },
    { name: 'validAfter', type: 'uint256' },
    { name: 'validBefore', type: 'uint256' },
  ],
  Payment: [
    { name: 'payToken', type: 'address' },
    { name: 'payAmount', type: 'uint256' },
    { name: 'payTo', type: 'address' },
  ],
  Fee: [
    { name: 'feeTo', type: 'address' },
    { name: 'feeAmount', type: 'uint256' },
  ],
  PaymentPermitDetails: [
    { name: 'meta', type: 'PermitMeta' },
    { name: 'buyer', type: 'address' },
    { name: 'caller', type: 'address' },
    { name: 'payment', type: 'Payment' },
    { name: 'fee', type: 'Fee' },
  ],
} as const satisfies Record<string, TypedField[]>;

/** `kind` values of PermitMeta. */
export const PERMIT_KINDS: Record<string, number> = { PAYMENT_ONLY: 0, PAYMENT_AND_DELIVERY: 1 };

/** The JSON form of a PaymentPermit as it travels in `payload.paymentPermit` (base58 addresses, decimal strings). */
export interface PaymentPermitJson {
  /**
   * From the server's `extensions.paymentPermitContext.meta`: `kind` (e.g. `PAYMENT_ONLY`),
   * `paymentId` (16 bytes, 0x hex), `nonce` (decimal uint256), validity window in Unix seconds.
   */
  meta: { kind: string; paymentId: string; nonce: string; validAfter: string | number; validBefore: string | number };
  /** The payer. */
  buyer: string;
  /** The permit's `caller`: the offer's `extra.fee.caller`, else the TRON zero address. */
  caller: string;
  /** Token contract, amount in atomic units (decimal string) and recipient. */
  payment: { payToken: string; payAmount: string; payTo: string };
  /** Fee recipient and amount in atomic units (zero address and `"0"` when none). */
  fee: { feeTo: string; feeAmount: string };
}

/** Typed data of a PaymentPermit. The domain has no `version` (the contract defines none). */
export function paymentPermitTypedData(permit: PaymentPermitJson, chainId: number, permitContract: string): TypedDataDefinition {
  const kind = PERMIT_KINDS[permit.meta.kind];
  if (kind === undefined) throw new TypeError(`Unknown PaymentPermit kind: ${permit.meta.kind}`);
  const paymentId = permit.meta.paymentId.toLowerCase();
  if (!/^0x[0-9a-f]{32}$/.test(paymentId)) throw new TypeError('paymentId must be 16 bytes of 0x-hex');
  return {
    domain: { name: 'PaymentPermit', chainId, verifyingContract: tronAddressToEvmHex(permitContract) },
    types: PAYMENT_PERMIT_TYPES as unknown as Record<string, TypedField[]>,
    primaryType: 'PaymentPermitDetails',
    message: {
      meta: {
        kind,
        paymentId,
        nonce: BigInt(permit.meta.nonce),
        validAfter: BigInt(permit.meta.validAfter),
        validBefore: BigInt(permit.meta.validBefore),
      },
      buyer: tronAddressToEvmHex(permit.buyer),
      caller: tronAddressToEvmHex(permit.caller),
      payment: {
        payToken: tronAddressToEvmHex(permit.payment.payToken),
        payAmount: BigInt(permit.payment.payAmount),
        payTo: tronAddressToEvmHex(permit.payment.payTo),
      },
      fee: { feeTo: tronAddressToEvmHex(permit.fee.feeTo), feeAmount: BigInt(permit.fee.feeAmount) },
    },
  };
}

// ---- exact_gasfree: GasFreeController PermitTransfer ----

/** EIP-712 types of the GasFreeController `PermitTransfer` (`exact_gasfree`). */
export const GASFREE_TYPES = {
  PermitTransfer: [
    { name: 'token', type: 'address' },
    { name: 'serviceProvider', type: 'address' },
    { name: 'user', type: 'address' },
    { name: 'receiver', type: 'address' },
    { name: 'value', type: 'uint256' },
    { name: 'maxFee', type: 'uint256' },
    { name: 'deadline', type: 'uint256' },
    { name: 'version', type: 'uint256' },
    { name: 'nonce', type: 'uint256' },
  ],
} as const satisfies Record<string, TypedField[]>;

/** The JSON form of a GasFree transfer as it travels in `payload.gasfree`. */
export interface GasFreeMessageJson {
  /** Token contract. */
  token: string;
  /** The GasFree provider that relays the transfer. */
  serviceProvider: string;
  /** The payer (owner of the GasFree address). */
  user: string;
  /** Recipient. */
  receiver: string;
  /** Amount in atomic units, decimal string. */
  value: string;
  /** Most the provider may take as fee, in atomic units. */
  maxFee: string;
  /** Unix seconds after which the permit is void. */
  deadline: string;
  /** GasFree message version, decimal string. */
  version: string;
  /** The user's GasFree nonce, decimal string. */
  nonce: string;
}

/**
 * Typed data of a GasFree `PermitTransfer`: domain `GasFreeController` version `V1.0.0`,
 * verifyingContract the network's controller (base58 `controller`, see `GASFREE_CONTROLLERS`).
 */
export function gasFreeTypedData(message: GasFreeMessageJson, chainId: number, controller: string): TypedDataDefinition {
  return {
    domain: { name: 'GasFreeController', version: 'V1.0.0', chainId, verifyingContract: tronAddressToEvmHex(controller) },
    types: GASFREE_TYPES as unknown as Record<string, TypedField[]>,
    primaryType: 'PermitTransfer',
    message: {
      token: tronAddressToEvmHex(message.token),
      serviceProvider: tronAddressToEvmHex(message.serviceProvider),
      user: tronAddressToEvmHex(message.user),
      receiver: tronAddressToEvmHex(message.receiver),
      value: BigInt(message.value),
      maxFee: BigInt(message.maxFee),
      deadline: BigInt(message.deadline),
      version: BigInt(message.version),
      nonce: BigInt(message.nonce),
    },
  };
}

// ---- EIP-3009 TransferWithAuthorization (exact on EVM) ----

/** EIP-712 types of EIP-3009 `TransferWithAuthorization` (the `exact` scheme on EVM, e.g. USDC on Base). */
export const TRANSFER_WITH_AUTHORIZATION_TYPES = {
  TransferWithAuthorization: [
    { name: 'from', type: 'address' },
    { name: 'to', type: 'address' },
    { name: 'value', type: 'uint256' },
    { name: 'validAfter', type: 'uint256' },
    { name: 'validBefore', type: 'uint256' },
    { name: 'nonce', type: 'bytes32' },
  ],
} as const satisfies Record<string, TypedField[]>;

/**
 * The JSON form of an EIP-3009 authorization as it travels in `payload.authorization`: 0x
 * addresses, decimal strings.
 * @inline
 */
export interface Eip3009AuthorizationJson {
  /** Payer (0x address). */
  from: string;
  /** Recipient, the offer's `payTo` (0x address). */
  to: string;
  /** Amount in the token's atomic units, decimal string. */
  value: string;
  /** Unix seconds from which the authorization is valid, decimal string. */
  validAfter: string;
  /** Unix seconds until which the authorization is valid, decimal string. */
  validBefore: string;
  /** 32 random bytes as 0x hex (64 hex characters). */
  nonce: string;
}

/**
 * Typed data of an EIP-3009 `TransferWithAuthorization`. `domain` is the token's: its
 * `name`/`version` (from the offer's `extra`), the chain id and the token contract.
 */
export function transferWithAuthorizationTypedData(
  authorization: Eip3009AuthorizationJson,
  domain: { name: string; version: string; chainId: number; verifyingContract: string },
): TypedDataDefinition {
  return {
    domain: { ...domain, verifyingContract: domain.verifyingContract as Hex },
    types: TRANSFER_WITH_AUTHORIZATION_TYPES as unknown as Record<string, TypedField[]>,
    primaryType: 'TransferWithAuthorization',
    message: {
      from: authorization.from,
      to: authorization.to,
      value: BigInt(authorization.value),
      validAfter: BigInt(authorization.validAfter),
      validBefore: BigInt(authorization.validBefore),
      nonce: authorization.nonce,
    },
  };
}
