/**
 * `trx-rent`: the account-API client, typed errors, and exact TRON helpers. This entry loads
 * only zod (HTTP is the platform's fetch); payment and TRON-signing code lives in `trx-rent/x402` and loads lazily.
 */
export { TrxRent, type TrxRentOptions } from './client.js';
export type { HttpClient, HttpClientOptions, RequestOptions, Hooks } from './http/client.js';
export type { RetryPolicy } from './http/retry.js';
export type { RetryEvent, RetryListener } from './http/attempts.js';
// The resource clients behind `client.keys`, `client.orders`…: exported as types for the reference.
export type { Keys } from './resources/keys.js';
export type { Prices } from './resources/prices.js';
export type { Orders } from './resources/orders.js';
export type { BalanceResource } from './resources/balance.js';
export type { History } from './resources/history.js';
export type { Deposits } from './resources/deposits.js';
export type { Withdrawals } from './resources/withdrawals.js';
export type { Webhooks } from './resources/webhooks.js';
export type { Transactions } from './resources/transactions.js';
export type { BroadcastRequest, BroadcastResponse } from './schemas/transactions.js';
export type { Transfers, Chain, ChainResources } from './tron/facade.js';
export type { PayoutTransfers, PayoutClient } from './transfers.js';
// Payouts (loaded by client.transfers.sendMany / batch on first use): types only here.
export type {
  Payout,
  PayoutRow,
  PayoutRun,
  PayoutPlan,
  PlannedOrder,
  PayoutReport,
  PayoutReportRow,
  PayoutEvent,
  PayoutJournal,
  JournalEntry,
  RowProblem,
  SendManyOptions,
} from './workflows/payouts/index.js';
// Payouts across workers on PostgreSQL (its modules and `pg` load when called).
export { sharedPayoutJournal } from './workflows/payouts/shared-entry.js';
export type {
  EstimateTransferParams,
  TransferEstimate,
  RentalQuote,
  TokenInfo,
  EnsureParams,
  EnsurePlan,
  EnsureResult,
  ActivationPlan,
  Activation,
  ActivateParams,
  SignedActivation,
  RentalTarget,
  ChainBalance,
  ProgressEvent,
  SendTransferParams,
  SentTransfer,
  TransferSigner,
  SendTronWeb,
  Confirmation,
} from './tron/engine.js';
// One identity per transfer: the records a retry lands instead of signing anew (types; the stores are small).
export type { TransferRecord, TransferStore, TransferState, TransferStatus } from './tron/identity.js';
export { memoryTransferStore, fileTransferStore, storeTransfers } from './tron/transfer-store.js';
// Types only: the node client loads with the transfer engine, on first use (`client.chain.node()`).
export type { TronNode, TronNodeOptions, Spendable, NodeCallOptions } from './tron/node.js';
export type { AccountResource, NodeAccount, TransactionInfo, BroadcastResult, SimulationFailure, ConstantCallResult } from './tron/node-answers.js';
// Types only: HD derivation (@scure/bip32, @scure/bip39) loads on first use (`client.chain.deriveAddresses`).
export type { DeriveAddressesParams, DerivedAddress, DerivedKey } from './protocol/hd-keys.js';
export { ApiPromise, type WithResponse } from './http/api-promise.js';
export type { Logger, LogLevel } from './http/log.js';
export { OrderPage, type WaitForOptions } from './resources/orders.js';
export type { CreateDepositParams, CreatedDeposit, DepositSigner, DepositTronWeb } from './resources/deposits.js';
// The signer interface (types only: the adapters are in `trx-rent/signers`, with secp256k1).
export type { Signer, SignableTransaction } from './protocol/signers/signature.js';
export type { SignerInput, TronWebSigner } from './protocol/signer.js';
export type { Journal, JournalRecord, Store } from './store/types.js';
export type { ClaimedWrite, RowClaims } from './store/postgres-claims.js';
export type { TransferEntry, TransferIndex } from './tron/transfer-store.js';
export type { BatchService, FinalEntry, PayoutIndex, PayoutJournalEntry, RowClaimer } from './workflows/payouts/journal.js';
export type { OverrunQuestion } from './workflows/payouts/types.js';
export type { SharedPayoutLedger } from './workflows/payouts/shared-journal.js';
export type { Deposit, TransferWatch, WatchEvent, WatchTransfersParams } from './tron/watch.js';
export type { SweepEvent, SweepOptions, SweepPlan, SweepPlanSource, SweepReport, SweepReportRow, SweepSource } from './workflows/sweep/types.js';
export type { SweepRun } from './workflows/sweep/run.js';
export * from './errors/index.js';
export { isTronAddress, toTronAddress, tronAddressToHex } from './utils/address.js';
export { type Clock, type AdvanceableTime, type PollOptions, type PollStep, systemClock, virtualClock, pollUntil } from './utils/clock.js';
export { trxToSun, sunToTrx, decimalToAtomic, atomicToDecimal, SUN_PER_TRX } from './utils/units.js';
export { LIMITS } from './schemas/common.js';
export { extraFields } from './schemas/known.js';
export type * from './schemas/index.js';
