/**
 * The transfer identity's shapes as the payouts use them (`src/tron/identity.ts`).
 * @module
 */
export type { TransferRecord, TransferStore } from '../../tron/identity.js';
