/**
 * The transfer engine's results as schemas: what `resources.ensure` and `transfers.send` return,
 * written once here for whoever must state them (the MCP tools' output schemas). Each schema is
 * held to the engine's own type at compile time, so a field renamed or retyped in the engine
 * and not here does not compile. Lenient (unknown fields kept), as every answer we describe.
 * Not in the core bundle: only MCP imports it.
 * @module
 */
import * as z from 'zod/mini';
import { Order } from '../schemas/orders.js';
import type { EnsureResult, SentTransfer } from './engine.js';
import type { Spendable } from './node.js';

/** What an address can spend now (`Spendable`). */
export const SpendableSchema = z.object({ energy: z.number(), bandwidth: z.number(), freeBandwidth: z.number() });

/** What `client.chain.ensure` did (`EnsureResult`). */
export const EnsureResultSchema = z.looseObject({
  address: z.string(),
  /** The activation sent first, or null. */
  activation: z.nullable(
    z.looseObject({
      address: z.string(),
      from: z.string(),
      amount_sun: z.number(),
      fee_sun: z.number(),
      total_sun: z.number(),
      tx_id: z.string(),
      block: z.number(),
    }),
  ),
  before: SpendableSchema,
  after: SpendableSchema,
  order: z.nullable(Order),
  bandwidth_order: z.nullable(Order),
  bought: z.object({ energy: z.number(), bandwidth: z.number() }),
  /** What the orders cost, in SUN (their total_cost_sun). */
  cost_sun: z.number(),
});

/** The part of `client.transfers.send`'s result (`SentTransfer`) a tool reports: ids, amount and costs in SUN. */
export const SentTransferSchema = z.looseObject({
  tx_id: z.string(),
  confirmed: z.enum(['included', 'solidified']),
  from: z.string(),
  to: z.string(),
  amount: z.string(),
  rent_cost_sun: z.number(),
  burned_sun: z.number(),
  total_cost_sun: z.number(),
  burn_cost_sun: z.number(),
  saving_sun: z.number(),
});

// ---- compile time: each schema describes its engine type ----
type Describes<T, S extends z.ZodMiniType> = T extends z.output<S> ? true : false;
const spendable: Describes<Spendable, typeof SpendableSchema> = true;
const ensure: Describes<EnsureResult, typeof EnsureResultSchema> = true;
const sent: Describes<SentTransfer, typeof SentTransferSchema> = true;
void [spendable, ensure, sent];
