/**
 * The transactions the mock makes itself, as the chain keeps them: their JSON body
 * ({@link syntheticBody}: one contract, unsigned, valid 60 s) and the record of an order's fill,
 * a DelegateResourceContract ({@link DelegationRecord}) whose body is built when first read.
 * @module
 */
import type { ChainTransaction } from './types.js';

/** How long a transaction the mock makes itself is valid (raw_data.expiration - timestamp). */
const VALID_MS = 60_000;

/** A contract type's `type_url`, one string per type (a template per transaction made a new one each time). */
const TYPE_URLS = new Map<string, string>();
function typeUrl(type: string): string {
  let url = TYPE_URLS.get(type);
  if (url === undefined) TYPE_URLS.set(type, (url = `type.googleapis.com/protocol.${type}`));
  return url;
}

/** The unsigned body of a transaction the mock makes itself at `now`: one `type` contract, valid 60 s. */
export function syntheticBody(txid: string, type: string, value: Record<string, unknown>, dataHex: string | undefined, now: number): ChainTransaction['tx'] {
  const contract = [{ parameter: { value, type_url: typeUrl(type) }, type }];
  // Two literals, not `{ contract, ...(dataHex ? { data } : {}), … }`: a spread into a literal
  // cost about 1 us per transaction on Node 20 (every fill makes one). Same keys, same order.
  const raw_data = dataHex ? { contract, data: dataHex, timestamp: now, expiration: now + VALID_MS } : { contract, timestamp: now, expiration: now + VALID_MS };
  return { txID: txid, raw_data, signature: [] };
}

/**
 * A fill's delegation on the chain: the record `delegateResource` used to build as an object
 * literal, with the same fields, but its `tx` (the JSON body, eight objects) made from the
 * contract's fields the first time something reads it (the node's views, a state file). The
 * chain keeps 50,000 transactions by default, nearly all of them these; their bodies were
 * a sixth of a busy mock's heap, every one allocated, promoted and marked though few are read.
 * `toJSON` writes the record as the literal was written, key for key, so state files do not
 * change. The body's time is the record's `timestamp` (the chain sets both from one clock read).
 */
export class DelegationRecord implements ChainTransaction {
  readonly txid: string;
  result: 'SUCCESS' | 'REVERT';
  owner: string;
  contractType = 'DelegateResourceContract';
  energyUsed = 0;
  netUsed = 280;
  feeSun = 0;
  block = 0;
  timestamp = 0;
  #body: ChainTransaction['tx'] | undefined;
  readonly #ownerHex: string;
  readonly #receiverHex: string;
  readonly #resource: 'ENERGY' | 'BANDWIDTH';
  readonly #balance: number;
  readonly #lockPeriod: number;

  constructor(
    txid: string,
    success: boolean,
    delegation: { owner: string; ownerHex: string; receiverHex: string; resource: 'ENERGY' | 'BANDWIDTH'; balance: number; lockPeriod: number },
  ) {
    this.txid = txid;
    this.result = success ? 'SUCCESS' : 'REVERT';
    this.owner = delegation.owner;
    this.#ownerHex = delegation.ownerHex;
    this.#receiverHex = delegation.receiverHex;
    this.#resource = delegation.resource;
    this.#balance = delegation.balance;
    this.#lockPeriod = delegation.lockPeriod;
  }

  /** The transaction as JSON (`txID`, `raw_data`, `signature`), built once, when first read. */
  get tx(): ChainTransaction['tx'] {
    this.#body ??= syntheticBody(
      this.txid,
      'DelegateResourceContract',
      {
        owner_address: this.#ownerHex,
        receiver_address: this.#receiverHex,
        resource: this.#resource,
        // The simulated chain has no staking: the delegated amount stands in for the staked SUN.
        balance: this.#balance,
        lock: true,
        lock_period: this.#lockPeriod,
      },
      undefined,
      this.timestamp,
    );
    return this.#body;
  }

  set tx(body: ChainTransaction['tx']) {
    this.#body = body;
  }

  /** The record as a plain object, keys in the order of the literal it replaces (state files). */
  toJSON(): Record<string, unknown> {
    return {
      txid: this.txid,
      tx: this.tx,
      result: this.result,
      owner: this.owner,
      contractType: this.contractType,
      energyUsed: this.energyUsed,
      netUsed: this.netUsed,
      feeSun: this.feeSun,
      block: this.block,
      timestamp: this.timestamp,
    };
  }
}
