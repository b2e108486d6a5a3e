/**
 * TIP-712 typed data for the TRON x402 schemes. TIP-712 is EIP-712 over 20-byte hex addresses
 * (base58 decoded, 0x41 prefix dropped) with the TRON chain id, so any EIP-712 signer (viem)
 * produces the signature tronweb would, and any EIP-712 verifier recovers it. Payload JSON keeps
 * base58 addresses; only the signed message uses hex. Shared by the client (signing) and the
 * mock (verification).
 */
import { tronAddressToEvmHex } from '../utils/address.js';

type Hex = `0x${string}`;

export interface TypedField {
  name: string;
  type: string;
}

export interface TypedDataDefinition {
  domain: { name: string; version?: string; chainId: number; verifyingContract: Hex };
  types: Record<string, TypedField[]>;
  primaryType: string;
  message: Record<string, unknown>;
}

// ---- exact_permit: BankofAI PaymentPermit ----

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
  meta: { kind: string; paymentId: string; nonce: string; validAfter: string | number; validBefore: string | number };
  buyer: string;
  caller: string;
  payment: { payToken: string; payAmount: string; payTo: string };
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
  token: string;
  serviceProvider: string;
  user: string;
  receiver: string;
  value: string;
  maxFee: string;
  deadline: string;
  version: string;
  nonce: string;
}

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

export interface Eip3009AuthorizationJson {
  from: string;
  to: string;
  value: string;
  validAfter: string;
  validBefore: string;
  nonce: string;
}

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
