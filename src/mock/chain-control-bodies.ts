/**
 * The bodies of the simulated chain's `/__mock/chain/*` control routes (transfers, funding,
 * usage and deposit patterns), validated before a handler runs; their routes' facts are in
 * `control-endpoints.ts`.
 * @module
 */
import * as z from 'zod';
import { tronAddress } from '../schemas/common.js';

/** Seconds of mock time a pattern runs at most (a year). */
const forSec = z
  .number()
  .int()
  .positive()
  .max(366 * 86_400)
  .optional();
/** An optional decimal amount of a 6-decimal token. */
const decimalUnits = (field: string) =>
  z
    .string()
    .regex(/^\d+(\.\d{1,6})?$/, `${field} must be a decimal amount`)
    .optional();

/** POST /__mock/chain/transfer: without `from`, the faucet pays; with it, `from` must hold the amount. */
export const TransferBody = z.strictObject({
  to: tronAddress,
  amount: z.union([z.string().min(1).max(80), z.number().positive()]).transform(String),
  token: z.string().min(1).max(64).optional(),
  from: z.optional(tronAddress),
});
/** POST /__mock/chain/fund */
export const FundBody = z.strictObject({ address: tronAddress, amount_sun: z.number().int().positive().max(Number.MAX_SAFE_INTEGER) });
/**
 * POST /__mock/fund: give an address TRX (which activates it, as on java-tron) and then USDT,
 * from the faucet; amounts in TRX and USDT as decimal strings (or numbers).
 */
export const FundAddressBody = z
  .strictObject({
    address: tronAddress,
    trx: z
      .union([z.string().regex(/^\d+(\.\d{1,6})?$/, 'trx must be a decimal amount of TRX'), z.number().nonnegative()])
      .transform(String)
      .optional(),
    usdt: z
      .union([z.string().regex(/^\d+(\.\d{1,6})?$/, 'usdt must be a decimal amount of USDT'), z.number().nonnegative()])
      .transform(String)
      .optional(),
  })
  .refine((b) => b.trx !== undefined || b.usdt !== undefined, { message: 'give trx, usdt or both', path: ['trx'] });

/** POST /__mock/chain/usage: the address spends energy over time on the mock clock (0 stops it). */
export const UsageBody = z.strictObject({
  address: tronAddress,
  energy_per_hour: z.number().int().nonnegative().max(1_000_000_000),
  every_sec: z.number().int().min(1).max(86_400).optional(),
  /** Stop after this long (seconds of mock time). */
  for_sec: forSec,
});
/** POST /__mock/chain/deposits: customers pay into the addresses over time on the mock clock. */
export const DepositsBody = z.strictObject({
  addresses: z.array(tronAddress).min(1).max(100_000),
  token: z.enum(['USDT', 'USDC', 'USDD']).optional(),
  every_sec: z.number().int().min(1).max(86_400).optional(),
  /** Each deposit's amount is drawn in [min, max] (decimal token units). */
  min: decimalUnits('min'),
  max: decimalUnits('max'),
  /** Stop after this long (seconds of mock time), or after `count` deposits. */
  for_sec: forSec,
  count: z.number().int().positive().max(1_000_000).optional(),
});
