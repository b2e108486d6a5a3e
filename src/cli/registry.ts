/**
 * The static command table. `trx-rent --help` lists these summaries without loading any command
 * module; a command's module (and whatever it needs: the SDK, prompts, the profile store, the mock) is
 * imported only when that command runs or shows its own help. Keep this file free of imports.
 */
import type { CommandModule } from './types.js';

export interface RegistryEntry {
  name: string;
  /** One line for the top-level help. */
  summary: string;
  /** Loads the command module (one file under ./commands/). */
  load: () => Promise<{ default: CommandModule }>;
  /** Listed in a group in the top-level help. */
  group: 'Account' | 'Trading' | 'Money' | 'Developer' | 'Setup';
  /**
   * The command spends money (orders, transfers, withdrawals, broadcasts): `true` for the whole
   * command, or the subcommands that do. A run that spends never takes a base URL the CLI found
   * rather than was given without naming it on stderr first (`services/config.ts`); the loaded
   * command carries it (`state.ts`: `declareSpending`, read by `action()`). What only
   * some runs spend marks itself when it does: every x402 payment (`commands/x402/paid.ts`),
   * `api` on a route that is not a GET, `mcp --allow-spend`.
   */
  spends?: true | readonly string[];
}

export const REGISTRY: readonly RegistryEntry[] = [
  { name: 'login', group: 'Setup', summary: 'Save an API key (checked with a real call) to a profile', load: () => import('./commands/login.js') },
  {
    name: 'status',
    group: 'Setup',
    summary: 'Where you stand: profile, base URL, key source, whether it works, balance, clock skew',
    load: () => import('./commands/status.js'),
  },
  { name: 'config', group: 'Setup', summary: 'Read and change profile settings (get, set, list)', load: () => import('./commands/config.js') },
  { name: 'profiles', group: 'Setup', summary: 'List profiles, switch or remove one', load: () => import('./commands/profiles.js') },
  { name: 'prices', group: 'Trading', summary: 'Providers sorted by price for a resource and duration', load: () => import('./commands/prices.js') },
  { name: 'preview', group: 'Trading', summary: 'What an order would cost now (places nothing)', load: () => import('./commands/preview.js') },
  { name: 'buy', group: 'Trading', summary: 'Rent energy or bandwidth for an address', spends: true, load: () => import('./commands/buy.js') },
  {
    name: 'ensure',
    group: 'Trading',
    summary: 'Make sure an address can spend N energy: buy only the deficit, wait for the delegation',
    spends: true,
    load: () => import('./commands/ensure.js'),
  },
  {
    name: 'send',
    group: 'Trading',
    summary: 'Send USDT (or another TRC-20) with the energy rented, not burnt',
    spends: true,
    load: () => import('./commands/send.js'),
  },
  {
    name: 'sweep',
    group: 'Trading',
    summary: 'Sweep USDT from many deposit addresses into a treasury with rented energy (plan, run, resume, --watch)',
    spends: true,
    load: () => import('./commands/sweep.js'),
  },
  {
    name: 'chain',
    group: 'Trading',
    summary: "Read the TRON chain: an address's TRX and token balance (like cast balance)",
    load: () => import('./commands/chain/index.js'),
  },
  {
    name: 'tx',
    group: 'Trading',
    summary: 'What became of a transfer; sign, weigh and broadcast a multi-signature transaction file',
    spends: ['broadcast'],
    load: () => import('./commands/tx/index.js'),
  },
  {
    name: 'rules',
    group: 'Trading',
    summary: 'Standing rules: keep addresses topped up, buy when cheap (check, plan, run, backtest, log)',
    spends: ['run'],
    load: () => import('./commands/rules.js'),
  },
  { name: 'orders', group: 'Trading', summary: 'List, show and wait for orders', load: () => import('./commands/orders.js') },
  { name: 'balance', group: 'Account', summary: 'Available and locked TRX, and USDT', load: () => import('./commands/balance.js') },
  { name: 'history', group: 'Account', summary: 'Fills over a period, or the account summary', load: () => import('./commands/history.js') },
  {
    name: 'deposit',
    group: 'Money',
    summary: 'Deposit TRX: address and memo, prepare, submit a signed transfer',
    spends: ['submit'],
    load: () => import('./commands/deposit.js'),
  },
  {
    name: 'broadcast',
    group: 'Money',
    summary: 'Hand a signed TRON transaction to the service to broadcast (permission broadcast)',
    spends: true,
    load: () => import('./commands/broadcast.js'),
  },
  {
    name: 'withdraw',
    group: 'Money',
    summary: 'Withdraw TRX or USDT to an address (always confirms)',
    spends: true,
    load: () => import('./commands/withdraw.js'),
  },
  {
    name: 'store',
    group: 'Setup',
    summary: 'The PostgreSQL store workers share: status (batches, rows, leases) and migrate',
    load: () => import('./commands/store/index.js'),
  },
  {
    name: 'keys',
    group: 'Account',
    summary: 'Create and revoke API keys; derive TRON deposit addresses from an HD mnemonic',
    load: () => import('./commands/keys/index.js'),
  },
  {
    name: 'webhooks',
    group: 'Developer',
    summary: 'Create, list, delete, verify webhooks; listen and forward locally',
    load: () => import('./commands/webhooks/index.js'),
  },
  { name: 'x402', group: 'Developer', summary: 'Pay-per-call (x402) commands', load: () => import('./commands/x402/index.js') },
  {
    name: 'mcp',
    group: 'Developer',
    summary: 'MCP server for agents (stdio or loopback HTTP); read-only unless --allow-spend',
    load: () => import('./commands/mcp.js'),
  },
  { name: 'api', group: 'Developer', summary: 'An authenticated raw call to any endpoint (like gh api)', load: () => import('./commands/api.js') },
  { name: 'mock', group: 'Developer', summary: 'Run the reference mock server', load: () => import('./commands/mock.js') },
  { name: 'demo', group: 'Developer', summary: 'A guided tour on an embedded mock server', load: () => import('./commands/demo.js') },
  { name: 'completion', group: 'Setup', summary: 'Shell completion script (bash, zsh, fish)', load: () => import('./commands/completion.js') },
];

export function findEntry(name: string): RegistryEntry | undefined {
  return REGISTRY.find((e) => e.name === name);
}
