import { z } from 'zod';
import { looseNumber } from './common.js';

/** GET /api/v1/balance: amounts in SUN (USDT in SUN-equivalent 6-decimal units). */
export const Balance = z.looseObject({
  trx: looseNumber,
  usdt: looseNumber,
  trx_locked: looseNumber,
});
export type Balance = z.infer<typeof Balance>;
