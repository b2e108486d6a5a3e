import { randomUUID } from 'node:crypto';
import type { Command } from 'commander';
import { type Context, action } from '../context.js';
import { CliError, EXIT } from '../errors.js';
import { amountOf, trxOf } from '../format.js';
import { renderPairs } from '../tables.js';
import { CURRENCIES, LIMITS, idempotencyKeyHelp, orList } from '../facts.js';
import { oneAmount, parseAddress, parseChoice, parseIdempotencyKey, parseTrx } from '../parse.js';
import { addressQuestion, trxAmountQuestion } from '../prompts.js';
import type { CommandModule } from '../types.js';
import { statusColor } from '../views.js';

// Checked before the confirmation; limits.ts has no imports, so this loads no schemas.
const { MIN_WITHDRAWAL_SUN } = LIMITS;

const command: CommandModule = {
  description:
    'Withdraw TRX or USDT from your balance to a TRON address. Always asks to confirm; without a ' +
    `terminal it needs --yes (else exit 2 and nothing is sent). Minimum ${trxOf(MIN_WITHDRAWAL_SUN)}.`,
  register(cmd: Command) {
    cmd
      .usage(`<amount> --to ADDRESS [--currency ${CURRENCIES.join('|')}]`)
      .argument('[amount]', 'decimal amount in the currency, e.g. 75 or 60.5')
      .option('-t, --to <address>', 'destination TRON address')
      .option('-a, --amount <amount>', 'the amount, as an option (same as the argument)')
      .option('--currency <currency>', orList(CURRENCIES), CURRENCIES[0])
      .option('--idempotency-key <key>', idempotencyKeyHelp('reuse a key to make a retried command safe'))
      .action(action(runWithdraw));
  },
};

async function runWithdraw(
  ctx: Context,
  { args: [amountPositional], opts }: { args: [string?]; opts: { to?: string; amount?: string; currency: string; idempotencyKey?: string }; cmd: Command },
): Promise<number | void> {
  const amountArg = oneAmount(amountPositional, opts.amount);
  const currency = parseChoice(opts.currency, CURRENCIES, '--currency');
  const givenKey = parseIdempotencyKey(opts.idempotencyKey);
  const input = await ctx.ask.inputs<{ amount: number; to: string }>({
    amount: {
      value: amountArg ? parseTrx(amountArg) : undefined,
      label: '<amount>',
      ask: async (p) =>
        parseTrx(await p.input(trxAmountQuestion(`How much ${currency} to withdraw (at least ${trxOf(MIN_WITHDRAWAL_SUN)})?`, MIN_WITHDRAWAL_SUN))),
    },
    to: {
      value: opts.to ? await parseAddress(opts.to) : undefined,
      label: '--to ADDRESS',
      ask: async (p) => (await p.input(addressQuestion('Withdraw to which TRON address?'))).trim(),
    },
  });
  if (input.amount < MIN_WITHDRAWAL_SUN) {
    throw new CliError('VALIDATION_ERROR', `the minimum withdrawal is ${trxOf(MIN_WITHDRAWAL_SUN)} ${currency}, got ${trxOf(input.amount)}`, {
      exitCode: EXIT.USAGE,
    });
  }
  ctx.spending = { sun: input.amount, currency };
  let available = '';
  if (ctx.interactive && !ctx.opts.yes) {
    // Only read-only calls before the person says yes.
    try {
      const balance = await (await ctx.clients.api('balance')).get({ maxRetries: 0, timeoutMs: 5_000 });
      available = ` (available: ${amountOf(Number(currency === 'TRX' ? balance.trx : balance.usdt), currency)})`;
    } catch {
      available = '';
    }
  }
  await ctx.ask.confirm(`Withdraw ${amountOf(input.amount, currency)} to ${input.to}${available}? This cannot be undone.`, 'withdraw');
  const client = await ctx.clients.client();
  const idempotencyKey = givenKey ?? randomUUID();
  ctx.debug(`idempotency key ${idempotencyKey}`);
  const withdrawal = await (await client.get('withdrawals')).create({ address: input.to, amount: input.amount, currency }, { idempotencyKey });
  ctx.out.result(withdrawal, () =>
    renderPairs(
      [
        ['withdrawal', ctx.out.s.bold(withdrawal.id)],
        ['status', statusColor(String(withdrawal.status), ctx.out.s)],
        ['amount', amountOf(Number(withdrawal.amount), String(withdrawal.currency))],
        ['to', withdrawal.address],
      ],
      ctx.out.s,
    ),
  );
}

export default command;
