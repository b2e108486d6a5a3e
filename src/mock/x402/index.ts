/**
 * The paid side of the mock (`/x402/tron/*`): its state (`PaidMock`, held by `MockState` as
 * `state.paid`), the paywall's terms, and the chain facts a test of the paid side reads. The
 * paid routes' handlers are in `../x402-api/`, a room above the pipeline.
 *
 * @module
 */
export { PaidMock, getPaidMock, getSimulatedChain, type MarketCandidate, type MarketLike, type PaidMockDeps, type PaidMockOptions } from './paid.js';
export { SimulatedChain } from '../chain/chain.js';
export { CHAIN_TOKENS, TRC20_ENERGY } from '../chain/accounts.js';
export { CHAIN_PARAMETERS } from '../chain/fees.js';
export { labelAddress } from '../chain/labels.js';
export type { ChainTransaction, Trc20Transfer } from '../chain/types.js';
export { MOCK_PAY_TO, BASE_USDC, gasFreeAddressOf, type PaywallOptions, type SettledPayment } from './paywall-terms.js';
