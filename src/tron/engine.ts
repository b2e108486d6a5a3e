/**
 * The transfer engine, loaded on first use of `client.transfers` / `client.chain` (see
 * `facade.ts`), so the core import stays small; signing code (secp256k1) loads only when a
 * transfer is built. One room per job: the public shapes (`types.ts`), inputs, fees and tokens
 * (`inputs.ts`), `estimate.ts`, `ensure.ts` (its target checks in `target.ts`, activation in
 * `activate.ts`), what an address holds (`balance.ts`), and `send.ts` (sent once: `identity.ts`).
 * @module
 */
export type * from './types.js';
export { estimateTransfer } from './estimate.js';
export { ensureResources, planEnsure, type EnsureInternals } from './ensure.js';
export { activateAccount, planActivation, type ActivateParams, type SignedActivation } from './activate.js';
export { checkRentalTarget, type RentalTarget } from './target.js';
export { readBalance, type ChainBalance } from './balance.js';
export { DEFAULT_MAX_FEE_LIMIT_SUN, DEFAULT_TIMEOUT_MS, NODE_BOUNDS, optionCost } from './inputs.js';
