/**
 * The paid side of the mock (`/x402/tron/*`): its state (`PaidMock`, held by `MockState` as
 * `state.paid`), the paywall, and the routes that run on the mock's one pipeline.
 *
 * @module
 */
export { PaidMock, getPaidMock, getSimulatedChain, type MarketCandidate, type MarketLike, type PaidMockDeps, type PaidMockOptions } from './paid.js';
export { SimulatedChain, CHAIN_TOKENS, CHAIN_PARAMETERS, TRC20_ENERGY, labelAddress, type ChainTransaction, type Trc20Transfer } from '../chain/chain.js';
export { MOCK_PAY_TO, BASE_USDC, gasFreeAddressOf, type PaywallOptions, type SettledPayment } from './paywall.js';
export { dynamicPrice, paidHandlers } from './routes.js';
export { paidRoutes, paidHelperRoutes } from '../routes.js';
