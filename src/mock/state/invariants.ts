/**
 * The mock's self-check (`MockState.checkInvariants`): every account's books balance
 * against its orders and withdrawals, and no scheduled task threw. Tests and the soak run call
 * it after driving the mock; it reads the state and changes nothing.
 * @module
 */
import type { Accounts } from './accounts.js';
import type { Currency } from './ledger.js';
import type { Money } from './money.js';
import type { OrderEngine } from './orders.js';
import type { InvariantReport } from './state-options.js';

/**
 * Every account's books balance (credited = available + locked + spent + withdrawn, no
 * negative or fractional amounts), locks match open orders and pending withdrawals, spent
 * matches confirmed fills, withdrawn matches completed withdrawals, and no task threw.
 */
export function checkInvariants(world: { accounts: Accounts; orders: OrderEngine; money: Money; taskErrors: readonly unknown[] }): InvariantReport {
  const problems: string[] = [];
  for (const account of world.accounts.byId.values()) {
    const { ledger } = account;
    problems.push(...ledger.problems(account.id));
    let spent = world.orders.evictedSpent(account.id);
    const openRefs = new Set<string>();
    for (const order of world.orders.all(account.id)) {
      let cost = 0;
      for (const fill of order.fills) {
        if (fill.status === 'CONFIRMED') {
          cost += fill.cost_sun;
          if (fill.cost_sun !== fill.amount * fill.price_sun) problems.push(`fill ${fill.id}: cost ${fill.cost_sun} != amount x price`);
        } else if (fill.cost_sun !== 0) problems.push(`failed fill ${fill.id} charged ${fill.cost_sun}`);
      }
      spent += cost;
      if (order.status === 'FILLED') {
        if (order.total_cost_sun !== cost) problems.push(`order ${order.id}: total_cost_sun ${order.total_cost_sun} != fills ${cost}`);
        if (order.filled_at === null || order.total_fee_sun !== 0) problems.push(`order ${order.id}: FILLED without filled_at or fee 0`);
      }
      const open = order.status === 'PENDING' || order.status === 'EXECUTING' || order.plan !== null;
      if (open) openRefs.add(order.id);
      else if (ledger.lockedFor(order.id) !== 0) problems.push(`order ${order.id} (${order.status}) still holds ${ledger.lockedFor(order.id)}`);
    }
    if (spent !== ledger.pots.TRX.spent) problems.push(`${account.id}: spent ${ledger.pots.TRX.spent} != confirmed fills ${spent}`);
    const withdrawn: Record<Currency, number> = {
      TRX: world.money.evictedWithdrawn.get(`${account.id} TRX`) ?? 0,
      USDT: world.money.evictedWithdrawn.get(`${account.id} USDT`) ?? 0,
    };
    for (const w of world.money.withdrawals.values()) {
      if (w.account_id !== account.id) continue;
      if (w.status === 'COMPLETED') withdrawn[w.currency] += w.amount;
      if (w.status === 'PENDING') openRefs.add(`withdrawal:${w.id}`);
    }
    for (const currency of ['TRX', 'USDT'] as const) {
      if (withdrawn[currency] !== ledger.pots[currency].withdrawn) {
        problems.push(`${account.id}: withdrawn ${currency} ${ledger.pots[currency].withdrawn} != completed withdrawals ${withdrawn[currency]}`);
      }
    }
    for (const ref of ledger.locks.keys()) if (!openRefs.has(ref)) problems.push(`${account.id}: lock ${ref} has no open order or withdrawal`);
  }
  for (const error of world.taskErrors) problems.push(`scheduled task threw: ${String((error as Error)?.stack ?? error)}`);
  return { ok: problems.length === 0, problems };
}
