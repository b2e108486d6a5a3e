/**
 * Sample `data` for `trx-rent webhooks trigger EVENT` (like `stripe trigger`): the shape each
 * event really carries (the same wire functions the order and money engines use), with fresh ids
 * and the account's own memo, so a receiver's handler sees what production would send. Nothing
 * is created: balances and orders stay as they were.
 *
 * @module
 */
import type { WebhookEventType } from '../../schemas/webhooks.js';
import { toTronAddress } from '../../utils/address.js';
import type { MockAccount } from './accounts.js';
import { withdrawalShape } from './money.js';
import type { OrderRecord } from './order-record.js';
import { orderFull } from './order-wire.js';
import type { Rng } from './rng.js';

/**
 * A sample order target: TRON's developer docs' example address, an ordinary account (a
 * contract, such as the USDT token, cannot receive a delegation).
 */
const TARGET = 'TJCnKsPa7y5okkXvQAidZBzqx3QyQ6sxMW';

/** Sample data for one event type; `undefined` for a type the mock does not know (the caller then needs `data`). */
export function sampleEventData(event: WebhookEventType | string, account: MockAccount, rng: Rng, now: number): unknown {
  const txId = rng.hex(32);
  if (event === 'order.filled' || event === 'order.failed') {
    const filled = event === 'order.filled';
    const order: OrderRecord = {
      seq: 0,
      id: rng.uuid(),
      account_id: account.id,
      status: filled ? 'FILLED' : 'FAILED',
      resource_type: 'ENERGY',
      order_type: 'MARKET',
      amount: 65_000,
      duration_sec: 3_600,
      target_address: TARGET,
      max_price_sun: null,
      created_at: now - 1_000,
      filled_at: filled ? now : null,
      total_cost_sun: filled ? 65_000 * 60 : null,
      total_fee_sun: filled ? 0 : null,
      fills: filled
        ? [
            {
              id: `fill_${rng.hex(10)}`,
              order_id: '',
              provider: 'tronsave',
              amount: 65_000,
              price_sun: 60,
              cost_sun: 65_000 * 60,
              tx_id: txId,
              status: 'CONFIRMED',
              verified: false,
              tronscan_url: `https://tronscan.org/#/transaction/${txId}`,
              resource_type: 'ENERGY',
              created_at: now,
              confirmed_at: now,
              run: 1,
            },
          ]
        : [],
      expires_at: null,
      plan: null,
      runs: filled ? 1 : 0,
      next_run_at: null,
      periodic_stopped: null,
      failure_reason: filled ? null : 'PROVIDER_UNAVAILABLE',
      failure_message: filled ? null : 'Delegation failed on every provider tried (sample event)',
    };
    return orderFull(order);
  }
  if (event === 'deposit.received') {
    return { tx_id: txId, amount_sun: 10_000_000, currency: 'TRX', memo: account.memo, from_address: toTronAddress(`41${rng.hex(20)}`) };
  }
  if (event === 'withdrawal.completed') {
    const shape = withdrawalShape({
      id: rng.uuid(),
      account_id: account.id,
      status: 'COMPLETED',
      amount: 5_000_000,
      currency: 'TRX',
      address: TARGET,
      created_at: now - 60_000,
      completed_at: now,
      tx_id: txId,
    });
    return { ...shape, tx_id: txId };
  }
  return undefined;
}
