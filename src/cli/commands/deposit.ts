import type { Command } from 'commander';
import { type Context, action } from '../context.js';
import { CliError, EXIT, UsageError } from '../errors.js';
import { LIMITS } from '../facts.js';
import { sunAndTrx, trxAndSun, trxOf } from '../format.js';
import { renderPairs } from '../tables.js';
import { readSignedTx } from '../signed-tx.js';
import { oneAmount, parseTrx } from '../parse.js';
import { trxAmountQuestion } from '../prompts.js';
import type { CommandModule } from '../types.js';
import { isTronAddress } from '../../utils/address.js';

const command: CommandModule = {
  description:
    'Deposit TRX into your account: `info` shows the address and your memo, `prepare` builds the ' +
    'transfer details for an amount, `submit` broadcasts a transfer you signed (with the memo). ' +
    'A transfer without your memo cannot be credited.',
  register(cmd: Command) {
    cmd.command('info').description('platform deposit address, your memo and the minimums').action(action(runDepositInfo));

    cmd
      .command('prepare')
      .description('address, memo and memo hex for a deposit of AMOUNT TRX')
      .argument('[amount]', `TRX, e.g. 25 or 1.5 (at least ${trxOf(LIMITS.MIN_DEPOSIT_SUN)})`)
      .option('-a, --amount <trx>', 'the amount, as an option (same as the argument)')
      .action(action<[string?], DepositPrepareOptions>(runDepositPrepare));

    cmd
      .command('submit')
      .description('broadcast a signed TRX transfer carrying your memo (JSON from --file or stdin)')
      .option('-f, --file <path>', 'signed transaction JSON (tronweb output); "-" or omitted: stdin')
      .action(action<[], DepositSubmitOptions>(runDepositSubmit));
  },
};

/**
 * Why a prepared deposit cannot be shown as instructions to pay (empty when it can): the amount
 * must be the one asked for, `memo_hex` the hex of `memo`'s UTF-8 bytes (any case), and the
 * address a base58check TRON address. Server text is never quoted here: it is what failed.
 */
export function preparedProblems(prepared: { address: unknown; memo: unknown; memo_hex: unknown; amount_sun: unknown }, askedSun: number): string[] {
  const problems: string[] = [];
  if (prepared.amount_sun !== askedSun) problems.push(`amount_sun is not the ${askedSun} SUN asked for`);
  const memo = typeof prepared.memo === 'string' ? prepared.memo : undefined;
  const hex = typeof prepared.memo_hex === 'string' ? prepared.memo_hex.toLowerCase().replace(/^0x/, '') : undefined;
  if (!memo || hex !== Buffer.from(memo, 'utf8').toString('hex')) problems.push('memo_hex is not the hex of memo');
  if (!isTronAddress(prepared.address)) problems.push('address fails the TRON base58check checksum');
  return problems;
}

/** The TRX amount of a TransferContract, when the transaction is one. */
function transferAmount(tx: unknown): number | undefined {
  const value = (tx as { raw_data?: { contract?: Array<{ parameter?: { value?: { amount?: unknown } } }> } })?.raw_data?.contract?.[0]?.parameter?.value
    ?.amount;
  return typeof value === 'number' ? value : undefined;
}

async function runDepositInfo(ctx: Context) {
  const client = await ctx.clients.client();
  const info = await (await client.get('deposits')).info();
  if (!isTronAddress(info.address)) {
    throw new CliError('INVALID_RESPONSE', 'the deposit address the server gave fails the TRON base58check checksum; do not send anything to it', {
      exitCode: EXIT.API,
      hint: 'check --base-url (is this the service you meant?)',
    });
  }
  ctx.out.result(info, () => {
    const s = ctx.out.s;
    return `${renderPairs(
      [
        ['address', s.bold(info.address)],
        ['memo', s.bold(info.memo)],
        ['minimum', `${info.min_amount_trx} TRX, ${info.min_amount_usdt} USDT`],
      ],
      s,
    )}${s.yellow('Send TRX to the address with the memo in the transaction data; without the memo it cannot be credited.')}`;
  });
}

interface DepositPrepareOptions {
  amount?: string;
}

async function runDepositPrepare(ctx: Context, { args: [amountPositional], opts }: { args: [string?]; opts: DepositPrepareOptions }) {
  const amountArg = oneAmount(amountPositional, opts.amount);
  const { amount } = await ctx.ask.inputs<{ amount: number }>({
    amount: {
      value: amountArg ? parseTrx(amountArg) : undefined,
      label: '<amount>',
      ask: async (p) =>
        parseTrx(await p.input(trxAmountQuestion(`How much TRX to deposit (at least ${trxOf(LIMITS.MIN_DEPOSIT_SUN)})?`, LIMITS.MIN_DEPOSIT_SUN))),
    },
  });
  if (amount < LIMITS.MIN_DEPOSIT_SUN) {
    throw new CliError('VALIDATION_ERROR', `the minimum deposit is ${trxOf(LIMITS.MIN_DEPOSIT_SUN)} TRX, got ${trxOf(amount)}`, { exitCode: EXIT.USAGE });
  }
  const client = await ctx.clients.client();
  const prepared = await (await client.get('deposits')).prepare({ amount_sun: amount });
  // What we tell a person to pay must be what they asked for, to an address that is one.
  const wrong = preparedProblems(prepared, amount);
  if (wrong.length) {
    throw new CliError(
      'INVALID_RESPONSE',
      `the server's deposit instructions do not match the request (${wrong.join('; ')}); do not send anything based on them`,
      {
        exitCode: EXIT.API,
        hint: 'check --base-url (is this the service you meant?) and try again; report it if it persists',
      },
    );
  }
  ctx.out.result(prepared, () =>
    renderPairs(
      [
        ['send', ctx.out.s.bold(trxAndSun(Number(prepared.amount_sun)))],
        ['to', ctx.out.s.bold(prepared.address)],
        ['memo', prepared.memo],
        ['memo hex', prepared.memo_hex],
        // The server's note names its raw endpoint; from here the next step is a command.
        ['next', `sign a TRX transfer of this amount to this address with the memo as its data, then: trx-rent deposit submit --file tx.json`],
      ],
      ctx.out.s,
    ),
  );
}

interface DepositSubmitOptions {
  file?: string;
}

async function runDepositSubmit(ctx: Context, { opts }: { opts: DepositSubmitOptions }) {
  const signed_tx = await readSignedTx(ctx, opts.file, 'trx-rent deposit submit');
  const client = await ctx.clients.client({ auth: false });
  const result = await (await client.get('deposits')).submit({ signed_tx: signed_tx as never });
  const amount = transferAmount(signed_tx);
  ctx.out.result(result, () =>
    renderPairs(
      [
        ['tx', ctx.out.s.bold(result.tx_id)],
        ['status', result.status],
        ...(amount !== undefined ? ([['amount', sunAndTrx(amount)]] as Array<[string, string]>) : []),
      ],
      ctx.out.s,
    ),
  );
}

export default command;
