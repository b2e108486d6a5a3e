/**
 * `trx-rent/x402`: the pay-per-call client. Every call of `/x402/tron/*` is paid through x402
 * (v2 or v1) in USDC on Base or USDT/USDC/USDD on TRON, within per-call and total limits that
 * are checked before anything is signed. viem, @x402/* and tronweb load lazily, on the first
 * payment that needs them.
 */
export { X402Client } from './client.js';
export type { X402ClientOptions, CallOptions, Paid, PaymentQuote, PaymentReceipt } from './types.js';
export type { RetryEvent, RetryListener } from '../http/attempts.js';
export {
  evmPayer,
  tronPayer,
  evmAddressOfKey,
  type Payer,
  type EvmPayerOptions,
  type TronPayerOptions,
  type EvmAccountLike,
  type TronWebLike,
} from './payers.js';
export type { TronSchemeOptions, PerNetwork } from './schemes/tron.js';
export {
  PaymentRefusedError,
  PaymentFailedError,
  PaymentSigningError,
  MissingPeerDependencyError,
  isTrxRentError,
  type RefusalReason,
  type RefusedOffer,
} from './errors.js';
export type { AllowList, PreferEntry } from './offers.js';
export type { BodyOf, QueryOf, ParamsOf } from '../api/types.js';
export { extraFields } from '../schemas/known.js';
export {
  NETWORKS,
  TRON_CHAIN_IDS,
  KNOWN_TOKENS,
  PAYMENT_PERMIT_CONTRACTS,
  GASFREE_CONTROLLERS,
  GASFREE_RELAYERS,
  TRON_FULL_NODES,
  TRON_SCHEMES,
  normaliseNetwork,
  networkLabel,
  tronChainId,
  evmChainId,
  findToken,
  type TokenInfo,
  type TronScheme,
  type TronNetworkName,
} from '../protocol/networks.js';
export {
  paymentPermitTypedData,
  gasFreeTypedData,
  transferWithAuthorizationTypedData,
  PAYMENT_PERMIT_TYPES,
  GASFREE_TYPES,
  TRANSFER_WITH_AUTHORIZATION_TYPES,
  type TypedDataDefinition,
  type PaymentPermitJson,
  type GasFreeMessageJson,
} from '../protocol/tip712.js';
export { signTrc20Transfer, fetchReferenceBlock, type SignTrc20TransferParams, type SignedTransfer } from './transfers.js';
export { encodeBase64Json, decodeBase64Json, HEADERS } from '../protocol/codec.js';
export { PEER_VERSIONS, PEER_MODULES, providePeers, type PeerModule } from '../peers/index.js';
export * from '../schemas/x402.js';
