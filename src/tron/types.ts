/**
 * The transfer engine's public shapes: what estimate, ensure and send take and return, their
 * progress events and who signs. Types only: the core re-exports them at no cost.
 * @module
 */
import type { HttpClient } from '../http/client.js';
import type { Signer, SignerInput } from '../protocol/signer.js';
import type { Order } from '../schemas/orders.js';
import type { TransferStore } from './identity.js';
import type { Spendable, TronNode } from './node.js';

/** A TRC-20 token: a symbol this package knows (`USDT`, `USDC`, `USDD`) or a contract address. */
export type TokenRef = string;

/** What `client.transfers.estimate` estimates. */
export interface EstimateTransferParams {
  /** The sender (base58). */
  from: string;
  /** The recipient (base58). */
  to: string;
  /** `USDT`, `USDC`, `USDD` (TRON mainnet contracts) or a TRC-20 contract address. */
  token: TokenRef;
  /** Amount in token units, as a decimal string or number (`'10'`, `'0.5'`); never floating-point arithmetic. */
  amount: string | number;
  /**
   * How long the rental would last, in seconds.
   * @default 3600
   */
  duration?: number | undefined;
}

/** A token resolved on chain. */
export interface TokenInfo {
  address: string;
  symbol: string | undefined;
  decimals: number;
}

/** The rental that would cover an energy deficit, at the best current price. */
export interface RentalQuote {
  resource: 'ENERGY' | 'BANDWIDTH';
  /** Units to rent: the deficit rounded up to the provider minimum. */
  amount: number;
  duration_sec: number;
  provider: string;
  price_sun: number;
  /** What the order would cost, in SUN. */
  cost_sun: number;
}

/** What a TRC-20 transfer needs and costs (all SUN figures are exact integers). */
export interface TransferEstimate {
  from: string;
  to: string;
  token: TokenInfo;
  /** Amount in token units (decimal string) and atomic units (integer string). */
  amount: string;
  amount_atomic: string;
  /** Whether the recipient holds the token already (an empty recipient costs about twice the energy). */
  recipient_holds_token: boolean;
  energy: { needed: number; available: number; deficit: number };
  /** Bandwidth is all or nothing: a transaction that does not fit in what is left burns for all its bytes. */
  bandwidth: { needed: number; available: number; deficit: number };
  /** The chain's fee parameters (getchainparameters): SUN per energy unit and per bandwidth byte. */
  fees: { energy_sun: number; bandwidth_sun: number };
  /** Burning TRX for the deficits at those fees. */
  burn: { energy_sun: number; bandwidth_sun: number; total_sun: number };
  /** Renting the energy deficit instead (null when there is no deficit). */
  rent: RentalQuote | null;
  /** With the rental: its cost plus any bandwidth burn. */
  with_rental_sun: number;
  /** burn.total_sun - with_rental_sun (negative when renting would cost more). */
  saving_sun: number;
}

/** What `client.chain.ensure` makes sure an address has. */
export interface EnsureParams {
  /** The address that needs the resources (base58). */
  address: string;
  /** Energy it must be able to spend. */
  energy: number;
  /** Bandwidth it must be able to spend (optional; rented only when short). */
  bandwidth?: number | undefined;
  /** Rental duration in seconds. @default 3600 */
  duration?: number | undefined;
  /** Refuse (SPENDING_CAP_EXCEEDED, nothing ordered) when the orders would cost more, in SUN. */
  maxCostSun?: number | undefined;
  /** Reused for the order (and `<key>:bw` for a bandwidth order): a retried call never buys twice. */
  idempotencyKey?: string | undefined;
  /** The whole call (reads, order, fill, delegation) ends within this long: a TimeoutError after. @default 120000 */
  timeoutMs?: number | undefined;
  signal?: AbortSignal | undefined;
  /** Called with each step, for progress displays. */
  onProgress?: ((event: ProgressEvent) => void) | undefined;
  /**
   * Called with the plan when something would be bought, before ordering; return false (or
   * throw) to stop: nothing is ordered (error CANCELLED). Not called when nothing is missing.
   */
  confirm?: ((plan: EnsurePlan) => boolean | Promise<boolean>) | undefined;
  /**
   * Awaited before each order is placed, with its Idempotency-Key and its request as it will be
   * sent: a caller that writes them down first can look a lost answer up later (the same key and
   * request return the order the service placed). A throw stops before the order.
   */
  beforeOrder?:
    | ((order: {
        key: string | undefined;
        request: { resource_type: 'ENERGY' | 'BANDWIDTH'; amount: number; duration_sec: number; target_address: string; max_price_sun?: number };
      }) => void | Promise<void>)
    | undefined;
  /**
   * Activate `address` first when it is not an account on chain: send it TRX (`amountSun`,
   * default 1 SUN) from `signer` (`{ privateKey }`, a TronWeb instance or a `Signer` of the
   * funding wallet's owner key), which also pays java-tron's account-creation fee (read from
   * the chain's parameters: 1.1 TRX at most on mainnet), and wait for it in a block before
   * ordering. Without it, a never-activated address is refused before anything is ordered
   * (TARGET_NOT_ACTIVATED): TRON refuses a delegation to it.
   */
  activate?: { signer: SignerInput; amountSun?: number | undefined } | undefined;
}

/** What activating an address would send and cost (from the funding wallet, not the account balance). */
export type ActivationPlan = {
  /** The address to activate. */
  address: string;
  /** The funding wallet that sends the TRX. */
  from: string;
  /** TRX sent, in SUN. */
  amount_sun: number;
  /** The most the fees can be (account creation plus its bandwidth burn), in SUN. */
  fee_sun: number;
  /** amount_sun + fee_sun. */
  total_sun: number;
};

/** An activation done: its transaction; `fee_sun` is what its receipt charged. */
export type Activation = ActivationPlan & {
  tx_id: string;
  /** The block it landed in. */
  block: number;
};

/** What `client.chain.ensure` is about to buy (see {@link EnsureParams.confirm}). */
export interface EnsurePlan {
  address: string;
  /**
   * The activation to run first (`activate` was given and the address is no account), or null.
   * `before` is then what the address will have once activated: no energy, the free bandwidth.
   */
  activation: ActivationPlan | null;
  before: Spendable;
  rentals: RentalQuote[];
  /** What the rentals cost at the best prices now, in SUN. */
  cost_sun: number;
}

// Type aliases (not interfaces) so they fit lenient, index-signature output schemas (MCP).
/** What `client.chain.ensure` did. */
export type EnsureResult = {
  address: string;
  /** The activation sent first (`activate`), or null when the address was an account already. */
  activation: Activation | null;
  /** What the address could spend before, and after the delegation showed on the node. */
  before: Spendable;
  after: Spendable;
  /** The energy order (null when nothing was bought), and a bandwidth order if one was needed. */
  order: Order | null;
  bandwidth_order: Order | null;
  bought: { energy: number; bandwidth: number };
  /** What the orders cost, in SUN (their total_cost_sun). */
  cost_sun: number;
};

/** Progress of ensure and send. */
export type ProgressEvent =
  | { step: 'estimated'; estimate: TransferEstimate }
  /** ensure's `activate`: the address is an account now (null: it was one already when the activation was about to be sent). */
  | { step: 'activated'; activation: Activation | null }
  | { step: 'ordered'; order: Order }
  | { step: 'filled'; order: Order }
  | { step: 'delegated'; after: Spendable }
  | { step: 'signed'; tx_id: string; expiration: number }
  /** The broadcast request is about to leave: from here on the transfer may be sent. */
  | { step: 'broadcasting'; tx_id: string; expiration: number }
  | { step: 'broadcast'; tx_id: string }
  /** A retry found this key's transfer signed already: it is landed, never signed anew. */
  | { step: 'resumed'; tx_id: string; expiration: number }
  | { step: 'confirmed'; tx_id: string; block: number };

/** A TronWeb instance with a default account, as far as `transfers.send` uses one (it signs only). */
export interface SendTronWeb {
  defaultAddress?: { base58?: string | false } | undefined;
  trx: {
    /** Signs an unsigned transaction with the instance's key (or `privateKey`), as TronWeb's `trx.sign` does. */
    sign(tx: never, privateKey?: string): Promise<unknown>;
  };
}

/** Who signs a transfer: a private key (64 hex, used in this process only) or a TronWeb instance. */
export type TransferSigner = { privateKey: string } | SendTronWeb;

/** What `client.transfers.send` sends. */
export interface SendTransferParams extends Omit<EstimateTransferParams, 'from'> {
  /**
   * The key or TronWeb instance that signs; the sender is its address. A `Signer` (a KMS key,
   * `trx-rent/signers`) signs for its own account, or with `from` and `permissionId` for another's.
   * Leave it out when `signers` sign.
   */
  signer?: TransferSigner | Signer | undefined;
  /**
   * The keys of a multi-signature account's permission that sign, in this process (`{ privateKey }`,
   * TronWeb instances or `Signer`s): each signs the same txID, and together their weights must
   * reach the permission's threshold. Checked on the chain before anything is rented
   * (PERMISSION_DENIED names the permission and the weight missing). Needs `from`.
   */
  signers?: readonly SignerInput[] | undefined;
  /** The account the transfer is from, when `signers` (or a `Signer` of another key) sign for it (base58). */
  from?: string | undefined;
  /**
   * The account permission the signers sign under: 0 the owner, 2 and up an active permission
   * (it is written into the transaction before its txID is computed).
   * @default the signers' own `permissionId`, else 0
   */
  permissionId?: number | undefined;
  /** Refuse (SPENDING_CAP_EXCEEDED) before ordering when renting would cost more, in SUN. */
  maxCostSun?: number | undefined;
  /**
   * Most TRX the transaction may burn, in SUN (the transaction's fee_limit).
   * @default the burn cost of the energy it needs, plus 10 %
   */
  feeLimitSun?: number | undefined;
  /** Skip renting and burn TRX instead (the estimate and report still show the comparison). */
  burn?: boolean | undefined;
  /**
   * The transfer's identity: the transaction is signed once and kept with this key (in the
   * client's `transferStore`) before it is broadcast, and the rental's order uses `<key>:energy`
   * (`<key>:bw`). A retry with the same key re-broadcasts that same transaction and waits for it
   * (never signing anew while it may still land), and finds the same order: it neither buys nor
   * sends twice. Without a key, one is made for the call (a retry is then not covered).
   */
  idempotencyKey?: string | undefined;
  /** Where this call keeps its signed transfer (overrides the client's `transferStore`). */
  transferStore?: TransferStore | undefined;
  /**
   * The most fee_limit may be, in SUN, whatever the node's figures imply (the chain's own
   * getMaxFeeLimit caps it too).
   * @default 100 TRX (100000000)
   */
  maxFeeLimitSun?: number | undefined;
  /**
   * Called with the estimate before anything is spent; return false (or throw) to stop: nothing
   * is ordered or sent (error CANCELLED).
   */
  confirm?: ((estimate: TransferEstimate) => boolean | Promise<boolean>) | Confirmation | undefined;
  /**
   * Which receipt `send` waits for: `'included'` (in a block on the node, the default) or
   * `'solidified'` (in a solidified, irreversible block: `/walletsolidity/gettransactioninfobyid`,
   * about a minute later on mainnet). `confirm: 'solidified'` is the same, when no confirmation
   * callback is needed. The result's `confirmed` says which it waited for.
   * @default 'included'
   */
  confirmation?: Confirmation | undefined;
  /** The whole call (estimate, rental, broadcast, receipt) ends within this long. @default 120000 */
  timeoutMs?: number | undefined;
  /** Abort at any step; once aborted nothing more is ordered or broadcast. */
  signal?: AbortSignal | undefined;
  /** Called at each step (estimate, order, delegation, broadcast, receipt), for progress output. */
  onProgress?: ((event: ProgressEvent) => void) | undefined;
}

/** How far `send` waits: the transfer in a block (`included`) or in a solidified block (`solidified`). */
export type Confirmation = 'included' | 'solidified';

/** The outcome of `client.transfers.send`: what was sent and what it cost against burning. */
export type SentTransfer = {
  tx_id: string;
  /** What the receipt was read from: a block on the node (`included`) or a solidified block (`solidified`). */
  confirmed: Confirmation;
  from: string;
  to: string;
  token: TokenInfo;
  amount: string;
  amount_atomic: string;
  /** The receipt (gettransactioninfobyid). */
  receipt: {
    block: number;
    result: string;
    energy_used: number;
    energy_burned_sun: number;
    bandwidth_used: number;
    bandwidth_burned_sun: number;
    fee_sun: number;
  };
  /** The estimate made before signing (null when a retry resumed a transfer signed earlier). */
  estimate: TransferEstimate | null;
  /** True when this call found the key's transfer signed by an earlier call and landed it. */
  resumed: boolean;
  /** The rental, or null when the sender had the energy (or `burn` was asked). */
  ensure: EnsureResult | null;
  /** What renting cost, what the network burned, and both together, in SUN. */
  rent_cost_sun: number;
  burned_sun: number;
  total_cost_sun: number;
  /** What burning TRX for all the energy and bandwidth used would have cost, at the chain's fees. */
  burn_cost_sun: number;
  /** burn_cost_sun - total_cost_sun. */
  saving_sun: number;
};

/** What the engine runs on. */
export interface EngineDeps {
  http: HttpClient;
  node: TronNode;
  /** Where send keeps each signed transfer with its idempotency key. @default a fresh memory store (one call) */
  store?: TransferStore | undefined;
}
