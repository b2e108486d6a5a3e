/**
 * Every tool, in the order `tools/list` shows them: the read tools generated from the endpoint
 * table (`./read.ts`), then the hand-written ones that wait, spend or change the account.
 */
import type { Tool } from '../tool.js';
import { CHAIN_TOOLS } from './chain.js';
import { MONEY_TOOLS } from './money.js';
import { ORDER_TOOLS } from './orders.js';
import { PAYOUT_TOOLS } from './payouts.js';
import { READ_TOOLS } from './read.js';
import { RULES_TOOLS } from './rules.js';
import { SWEEP_TOOLS } from './sweep.js';
import { WEBHOOK_TOOLS } from './webhooks.js';
import { X402_TOOLS } from './x402.js';

export const TOOLS: readonly Tool[] = [
  ...READ_TOOLS,
  ...ORDER_TOOLS,
  ...CHAIN_TOOLS,
  ...PAYOUT_TOOLS,
  ...SWEEP_TOOLS,
  ...MONEY_TOOLS,
  ...WEBHOOK_TOOLS,
  ...RULES_TOOLS,
  ...X402_TOOLS,
];
