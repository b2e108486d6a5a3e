/** Every tool, in the order `tools/list` shows them. */
import type { Tool } from '../tool.js';
import { ACCOUNT_TOOLS } from './account.js';
import { CHAIN_TOOLS } from './chain.js';
import { MONEY_TOOLS } from './money.js';
import { ORDER_TOOLS } from './orders.js';
import { PRICE_TOOLS } from './prices.js';
import { WEBHOOK_TOOLS } from './webhooks.js';
import { X402_TOOLS } from './x402.js';

export const TOOLS: readonly Tool[] = [...PRICE_TOOLS, ...ORDER_TOOLS, ...CHAIN_TOOLS, ...ACCOUNT_TOOLS, ...MONEY_TOOLS, ...WEBHOOK_TOOLS, ...X402_TOOLS];
