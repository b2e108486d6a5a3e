/**
 * Making an unknown outcome known. An action whose answer never came counts as spent at its cap;
 * once its fill time has passed, the runner looks at the service's orders for the rule's address
 * created around the intent and not journaled by any other action: a FILLED one is journaled as
 * `done` with its real cost, a FAILED one as `failed`; when none appeared, nothing was ordered
 * (`failed`). Until then the cap stays counted.
 * @module
 */
import type { ActContext } from './act.js';
import type { JournalEntry } from './journal.js';
import type { Rule } from './schema.js';
import { targetAddress } from './triggers.js';

/** Slack around the intent's time when matching an order's `created_at` (clocks differ). */
const SLACK_MS = 60_000;

function timeOf(value: unknown): number {
  return typeof value === 'number' ? value * (value < 1e12 ? 1000 : 1) : Date.parse(String(value));
}

/** Resolve what can be resolved of `rules`' unknown actions; returns how many were. */
export async function resolveUnknown(ctx: ActContext, rules: readonly Rule[]): Promise<number> {
  const now = ctx.now();
  const entries = ctx.journal.entries();
  // One pass over the journal: intents whose key no later line resolved.
  const open = new Map<string, JournalEntry>();
  for (const e of entries) {
    if (!e.key) continue;
    if (e.kind === 'intent') open.set(e.key, e);
    else if (e.kind === 'done' || e.kind === 'failed') open.delete(e.key);
  }
  const byId = new Map(rules.map((r) => [r.id, r]));
  const pending = [...open.values()]
    .filter((e) => now - e.ts > ctx.timeoutMs && byId.get(e.rule) && byId.get(e.rule)!.action.type !== 'notify')
    .map((e) => ({ rule: byId.get(e.rule)!, action: { ts: e.ts, key: e.key, window: e.window, spent_sun: e.reserved_sun ?? 0 } }));
  if (!pending.length) return 0;
  const known = new Set(entries.flatMap((e) => e.order_ids ?? []));
  const page = await ctx.client.orders.list({ limit: 100 });
  let resolved = 0;
  for (const { rule, action } of pending) {
    const target = targetAddress(rule);
    const match = page.orders.find((o) => {
      const at = timeOf(o.created_at);
      return o.target_address === target && !known.has(o.id) && at >= action.ts - SLACK_MS && at <= action.ts + ctx.timeoutMs + SLACK_MS;
    });
    if (match && (match.status === 'PENDING' || match.status === 'EXECUTING')) continue;
    const base = { ts: ctx.now(), runner: ctx.runner, rule: rule.id, window: action.window, key: action.key };
    if (match?.status === 'FILLED') {
      const order = await ctx.client.orders.get(match.id);
      known.add(match.id);
      await ctx.journal.append({ ...base, kind: 'done', cost_sun: Number(order.total_cost_sun ?? action.spent_sun), order_ids: [match.id], reason: 'resolved from the order list' });
    } else {
      await ctx.journal.append({ ...base, kind: 'failed', reason: match ? `resolved: order ${match.id} ${String(match.status)}` : 'resolved: no order was created' });
    }
    resolved++;
  }
  return resolved;
}
