/**
 * Two or three examples for each command's help (gh's EXAMPLES section), by command path. One
 * table, so every command's help gets them without its module knowing; `program.ts` appends them
 * with the footer that points at the global options. Every example runs against the mock as
 * written (test/cli/help-examples.test.ts): keep them runnable.
 */
export const EXAMPLES: Readonly<Record<string, readonly string[]>> = {
  login: ['trx-rent login --base-url https://api.example.com', 'trx-rent login --profile work --api-key-file ./key.txt'],
  status: ['trx-rent status', 'trx-rent status --profile work --json'],
  config: ['trx-rent config list', 'trx-rent config set base_url https://api.example.com'],
  profiles: ['trx-rent profiles list', 'trx-rent profiles use work'],
  prices: ['trx-rent prices', 'trx-rent prices bandwidth -d 3d', 'trx-rent prices --amount 65k --query "[0].provider"'],
  'prices history': ['trx-rent prices history', 'trx-rent prices history --period 7d --resource energy', 'trx-rent prices history --provider tem --json'],
  preview: ['trx-rent preview 65000', 'trx-rent preview 130k energy -d 1d --max-price 60'],
  // Prices are SUN per unit for the whole duration: about 50 for 1 hour, about 90 for a day.
  buy: [
    'trx-rent buy 65000 --to T... --duration 1h --wait',
    'trx-rent buy 130k energy --to T... --duration 1d --max-price 120 --yes --wait --json',
    'trx-rent buy 65k --to T... -d 1h --type LIMIT --max-price 50 --yes --json',
  ],
  ensure: [
    'trx-rent ensure T... --energy 130k --duration 1h',
    'trx-rent ensure T... --energy 65000 --max-cost 10 --yes --json',
    'trx-rent ensure T... --energy 65000 --activate --key-file wallet.json --yes',
  ],
  chain: ['trx-rent chain balance T...', 'trx-rent chain balance T... --token usdt --json'],
  'chain balance': ['trx-rent chain balance T...', 'trx-rent chain balance T... --token usdt --json'],
  orders: ['trx-rent orders list', 'trx-rent orders get efdfc09b', 'trx-rent orders wait efdfc09b --timeout 5m'],
  'orders list': ['trx-rent orders list --status FILLED', 'trx-rent orders list --all --json id,status'],
  'orders get': [
    'trx-rent orders get efdfc09b          # a unique prefix of the id is enough',
    'trx-rent orders get efdfc09b-56a1-4c52-9a43-3e6a4535619d --json',
  ],
  'orders wait': ['trx-rent orders wait efdfc09b', 'trx-rent orders wait efdfc09b --timeout 10m --json'],
  rules: [
    'trx-rent rules check rules.json',
    'trx-rent rules plan rules.json --journal rules.journal.jsonl',
    'trx-rent rules run rules.json --execute --journal rules.journal.jsonl',
  ],
  'rules check': ['trx-rent rules check rules.json', 'trx-rent rules check rules.json --offline --json'],
  'rules plan': [
    'trx-rent rules plan rules.json --journal rules.journal.jsonl',
    'trx-rent rules plan rules.json --allow-missing-journal --json   # before the first run: no journal yet',
  ],
  'rules run': [
    'trx-rent rules run rules.json          # dry run: nothing is spent',
    'trx-rent rules run rules.json --execute --json --journal /var/lib/trx-rent/rules.journal.jsonl',
  ],
  'rules backtest': ['trx-rent rules backtest rules.json --days 30', 'trx-rent rules backtest rules.json --days 7 --energy-per-hour 130000 --json'],
  'rules log': ['trx-rent rules log --journal rules.journal.jsonl', 'trx-rent rules log --journal rules.journal.jsonl --rule hot-wallet --limit 20 --json'],
  'rules service': ['trx-rent rules service --print > /etc/systemd/system/trx-rent-rules.service'],
  balance: ['trx-rent balance', 'trx-rent balance --query trx'],
  history: ['trx-rent history', 'trx-rent history --period 30D --json', 'trx-rent history summary'],
  deposit: ['trx-rent deposit info', 'trx-rent deposit prepare 10', 'trx-rent deposit submit --file tx.json'],
  broadcast: ['trx-rent broadcast --file signed-tx.json', 'trx-rent broadcast --json < signed-tx.json'],
  withdraw: ['trx-rent withdraw 50 --to T...', 'trx-rent withdraw 60.5 --currency USDT --to T... --yes'],
  keys: [
    'trx-rent keys create --name ci --permissions view_orders,view_balance',
    'trx-rent keys revoke key_123',
    'trx-rent keys derive --count 10 --mnemonic-file words.txt',
  ],
  'keys derive': [
    'trx-rent keys derive --count 10 --mnemonic-file words.txt',
    'trx-rent keys derive --count 1000 --from 1000 --account 1 --mnemonic-file words.txt --json',
  ],
  webhooks: [
    'trx-rent webhooks create --url https://example.com/hook --events order.filled',
    'TRX_RENT_WEBHOOK_SECRET=... trx-rent webhooks listen --forward-to http://localhost:3000/hook',
  ],
  x402: [
    'trx-rent --mock x402 prices',
    'TRX_RENT_X402_TRON_KEY=... trx-rent x402 prices energy --yes',
    'trx-rent x402 estimate trc20_transfer --key-file wallet.json',
  ],
  'x402 prices': ['trx-rent --mock x402 prices', 'trx-rent x402 prices energy --key-file wallet.json --max-payment 0.01'],
  mcp: ['trx-rent mcp --mock', 'trx-rent mcp --allow-spend --max-order-trx 20'],
  api: ['trx-rent api GET balance -i', 'trx-rent api /orders --paginate --query "[].id"'],
  mock: ['trx-rent mock --port 8787', 'trx-rent mock --seed 7 --chaos 0.1'],
  'mock accounts': ['trx-rent mock accounts', 'trx-rent mock accounts --json --query "accounts[0].address"'],
  demo: ['trx-rent demo'],
  completion: ['trx-rent completion bash >> ~/.bashrc', 'trx-rent completion zsh > "${fpath[1]}/_trx-rent"'],
};

/** The line under every command's help: the global options are listed once, at the top level. */
export const GLOBAL_FOOTER =
  'Global options (--json [FIELDS], -q/--query, --wide, --yes, --mock, --verbose,\n--no-color, --base-url, --profile, --api-key-file) work with every command:\nsee `trx-rent --help`.';

/** The help text appended to the command at `path` (e.g. `orders get`). */
export function helpAfter(path: string): string {
  const examples = EXAMPLES[path];
  return `${examples?.length ? `\nExamples:\n${examples.map((e) => `  $ ${e}`).join('\n')}\n` : ''}\n${GLOBAL_FOOTER}`;
}
