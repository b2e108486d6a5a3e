import type { Command } from 'commander';
import type { Balance, Order, Preview } from '../../schemas/index.js';
import type { WebhookEvent } from '../../webhooks/index.js';
import { type Context, action } from '../context.js';
import { CliError } from '../errors.js';
import { formatDuration, sunAndTrx, trxAndSun, trxOf } from '../format.js';
import { renderTable } from '../tables.js';
import { checkMinimum, parseDuration, parseUnits } from '../parse.js';
import { type DeliveryOutcome, startReceiver } from '../receiver.js';
import type { CommandModule } from '../types.js';
import { optionCostSun, renderFills, renderPreview } from '../views.js';
import { waitForOrder } from '../wait.js';
import { rankPrices } from './prices.js';
import { renderEstimate, renderSent } from './send.js';

// A fixed, valid TRON address (base58check of 41 5a523b44…4293f) that receives the demo's energy, on the mock only.
const DEMO_TARGET = 'TJCnKsPa7y5okkXvQAidZBzqx3QyQ6sxMW';
// The tour's sending wallet, on the mock only: a fixed key anyone can read, holding mock USDT.
const DEMO_SENDER_KEY = 'd3'.repeat(32);

const command: CommandModule = {
  description:
    'A guided tour on an embedded mock server (no account, no real TRX): prices, preview, buy, ' +
    'wait for the fill, the fills with explorer links, the balance, and a verified webhook.',
  register(cmd: Command) {
    cmd
      .option('--amount <units>', 'energy to rent in the tour', '65000')
      .option('--duration <duration>', 'rental duration in the tour', '1h')
      .action(action<[], DemoOptions>(runDemo));
  },
};

function waitFor<T>(find: () => T | undefined, waiters: Array<() => void>, timeoutMs: number): Promise<T | undefined> {
  return new Promise((resolve) => {
    const check = () => {
      const found = find();
      if (found !== undefined) {
        clearTimeout(timer);
        resolve(found);
      } else {
        waiters.push(check);
      }
    };
    const timer = setTimeout(() => resolve(find()), timeoutMs);
    check();
  });
}

interface DemoOptions {
  amount: string;
  duration: string;
}

async function runDemo(ctx: Context, { opts }: { opts: DemoOptions }) {
  const amount = checkMinimum('ENERGY', parseUnits(opts.amount, '--amount'), '--amount');
  const duration = parseDuration(opts.duration);
  const out = ctx.out;
  const s = out.s;
  const total = 9;
  let n = 0;
  const step = (title: string, detail: string, command?: string) => {
    n++;
    out.print(`\n${s.cyan(`${n}/${total}`)} ${s.bold(title)}  ${detail}${command ? `\n    ${s.dim(`$ ${command}`)}` : ''}`);
  };
  const indent = (text: string) => text.replace(/\n$/, '').replace(/^/gm, '    ');

  out.print(`${s.bold('trx-rent demo')}: a tour on an embedded mock server (no account, no real TRX).`);

  // 1. The mock and a client for its demo account.
  const mock = await ctx.mocks.start({ port: 0, host: '127.0.0.1' });
  const client = await ctx.clients.clientFor(mock.url, mock.apiKey);
  const before: Balance = await (await client.get('balance')).get();
  step('Mock server', `${mock.url}, demo account with ${trxAndSun(Number(before.trx))}`, 'trx-rent mock');

  // 2. A loopback receiver registered as a webhook; every delivery is verified.
  let secret: string | undefined;
  const deliveries: DeliveryOutcome[] = [];
  const waiters: Array<() => void> = [];
  const receiver = await startReceiver({
    secret: () => secret,
    onDelivery: (outcome) => {
      deliveries.push(outcome);
      for (const w of waiters.splice(0)) w();
    },
  });
  ctx.onDispose(() => receiver.close());
  const webhook = await (await client.get('webhooks')).create({ url: receiver.url, events: ['order.filled', 'order.failed'] });
  secret = webhook.secret;
  if (!secret) throw new CliError('DEMO_FAILED', 'the mock returned no webhook secret');
  step(
    'Webhook receiver',
    `${receiver.url}, registered as ${webhook.id} for order.filled`,
    `trx-rent webhooks listen --register --forward-to http://localhost:3000/webhooks`,
  );

  // 3. Prices: only the providers that quote this amount (a provider whose minimum order
  // is above it lists a price it would not fill).
  const list = await (await client.get('prices')).list();
  const preview: Preview = await (await client.get('orders')).preview({ resource: 'ENERGY', amount, duration });
  const quoted = new Set([preview.best, ...preview.fallbacks].filter((o) => o != null).map((o) => o.provider));
  const rows = rankPrices(list, 'ENERGY', duration, amount).filter((r) => quoted.has(r.provider));
  step('Prices', `energy for ${formatDuration(duration)}, cheapest first`, `trx-rent prices energy --duration ${opts.duration} --amount ${amount}`);
  out.print(
    indent(
      renderTable(
        [{ header: 'PROVIDER' }, { header: 'SUN/UNIT', align: 'right' }, { header: 'TIER' }, { header: `COST OF ${amount}`, align: 'right' }],
        rows.slice(0, 3).map((r) => [r.provider, String(r.price_sun), formatDuration(r.duration_sec), `${r.cost_trx} TRX`]),
        s,
      ),
    ),
  );

  // 4. Preview.
  step('Preview', 'what the order would cost now (places nothing)', `trx-rent preview ${amount} energy --duration ${opts.duration}`);
  out.print(indent(renderPreview(preview, { resource: 'ENERGY', amount, duration_sec: duration }, s)));
  if (!preview.best) throw new CliError('DEMO_FAILED', 'the mock offered no provider for the tour');

  // 5. Buy (the tour is its own confirmation: it spends mock TRX only).
  const created = await (await client.get('orders')).create({
    resource_type: 'ENERGY',
    amount,
    duration_sec: duration,
    target_address: DEMO_TARGET,
  });
  step(
    'Buy',
    `order ${s.bold(created.id)} placed (${created.status}) for about ${sunAndTrx(optionCostSun(preview.best, amount))}`,
    `trx-rent buy ${amount} energy --to ${DEMO_TARGET} --duration ${opts.duration} --yes`,
  );

  // 6. Wait for the fill; show the fills with explorer links.
  step('Wait', 'following the order to FILLED', `trx-rent orders wait ${created.id}`);
  const order: Order = await waitForOrder(ctx, client, created.id, 60_000, { resumable: false });
  if (order.fills?.length) out.print(indent(renderFills(order.fills, s)));

  // 7. Balance.
  const after: Balance = await (await client.get('balance')).get();
  const spent = Number(before.trx) - Number(after.trx);
  step(
    'Balance',
    `${trxAndSun(Number(after.trx))} (spent ${trxOf(spent)} TRX${order.total_cost_sun != null ? `; order total ${trxOf(Number(order.total_cost_sun))} TRX` : ''})`,
    'trx-rent balance',
  );

  // 8. The order.filled webhook, verified.
  const outcome = await waitFor(
    () => deliveries.find((d) => d.ok && (d.event.data as { id?: unknown }).id === order.id) ?? deliveries.find((d) => !d.ok),
    waiters,
    15_000,
  );
  if (!outcome) throw new CliError('DEMO_FAILED', 'no order.filled webhook arrived within 15 s');
  if (!outcome.ok) throw new CliError('DEMO_FAILED', `a webhook delivery failed verification: ${outcome.message}`);
  const event: WebhookEvent = outcome.event;
  step(
    'Webhook',
    `${s.green('✓')} ${event.event} for ${order.id} received and verified (HMAC-SHA256 of the raw body, ${outcome.delivery.signatureHeader ?? 'signature header'})`,
    'trx-rent webhooks verify --secret-file secret.txt --signature "sha256=…" < body.json',
  );

  // 9. Send USDT from a wallet with no energy: the energy is rented, not burnt. The mock's
  // faucet funds the wallet (like a testnet faucet); everything else goes over HTTP.
  const chainApi = await ctx.chain.handlesFor(client, mock.url);
  const { privateKeyToTronAddress } = await import('../../protocol/tron-transaction.js');
  const sender = privateKeyToTronAddress(DEMO_SENDER_KEY);
  const chain = mock.state.chain;
  chain.syntheticTransfer({ token: chain.token('USDT')!, to: sender, amount: 100_000_000n, label: 'demo wallet' });
  chain.fundTrx(sender, 1_000_000n);
  let estimateText = '';
  const sent = await chainApi.transfers.send({
    token: 'USDT',
    to: DEMO_TARGET,
    amount: '10',
    signer: { privateKey: DEMO_SENDER_KEY },
    confirm: (estimate) => {
      estimateText = renderEstimate(estimate, false, s);
      return true;
    },
  });
  step(
    'Send USDT',
    `10 USDT from ${sender} (no energy) to ${DEMO_TARGET}, the energy rented instead of burnt`,
    `trx-rent send usdt --to ${DEMO_TARGET} --amount 10 --key-file key.txt`,
  );
  out.print(indent(estimateText));
  out.print(indent(renderSent(sent, s)));

  out.print(
    `\n${s.green('Tour complete.')} Next: run ${s.bold('trx-rent mock')} in one terminal and point the CLI at it\n` +
      `(${s.dim('export TRX_RENT_BASE_URL=http://127.0.0.1:8787 TRX_RENT_API_KEY=<printed key>')}), or \`trx-rent login\` to a real API.`,
  );
  if (out.json) {
    out.result({
      mock_url: mock.url,
      target_address: DEMO_TARGET,
      prices: rows.slice(0, 3),
      preview,
      order,
      balance: { before, after, spent_sun: spent },
      webhook: { id: webhook.id, event: event.event, order_id: order.id, verified: true },
      transfer: sent,
    });
  }
}

export default command;
