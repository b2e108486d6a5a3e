/**
 * The transfer identity's shapes as the payouts use them (`src/tron/identity.ts`, the
 * exactly-once issue). Until that module lands this file states its documented API; afterwards it
 * only re-exports it.
 * @module
 */
/** One signed transfer, kept with the idempotency key it was made for. */
export interface TransferRecord {
  key: string;
  tx_id: string;
  signed: { txID: string; raw_data: unknown; raw_data_hex: string; signature: string[] };
  expiration: number;
  from: string;
  to: string;
  contract: string;
  amount_atomic: string;
  created_at: number;
  broadcast_at?: number | undefined;
}
/** Where records live; put() is durable before it resolves. */
export interface TransferStore {
  get(key: string): Promise<TransferRecord | undefined>;
  put(record: TransferRecord): Promise<void>;
  delete(key: string): Promise<void>;
}
