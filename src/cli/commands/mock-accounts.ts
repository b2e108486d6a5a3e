/**
 * `trx-rent mock accounts`: the sandbox's funded test accounts, like anvil's ten. Their keys come
 * from the running mock's seed alone (`src/mock/chain/sandbox.ts`), so they are derived here from
 * the seed `/__mock/state` reports, never sent over the wire; their balances are read from the
 * mock's TRON node. This is the only command that prints them: they are sandbox keys, public to
 * anyone who knows the seed, and the output says so.
 * @module
 */
import type { Command } from 'commander';
import { type Context, action } from '../context.js';
import { CliError } from '../errors.js';
import { parseInteger } from '../parse.js';

interface AccountsOptions {
  count: string;
}

/** What every listing says about the keys it prints. */
export const SANDBOX_KEYS_NOTE =
  "Sandbox keys: derived from the mock's seed, so anyone who knows the seed knows them. Use them on the mock only; never send real funds to them.";

/** Register `mock accounts` under `mock`. */
export function registerMockAccounts(mock: Command): void {
  mock
    .command('accounts')
    .description(
      "The mock's funded test accounts (like anvil's): addresses and private keys derived from its seed, each an account on its simulated chain " +
        'holding 10,000 TRX and 10,000 USDT from genesis (balances read from its node now). The only command that prints these keys.',
    )
    .option('--count <n>', 'how many to list (the mock funds the first 10)', '10')
    .addHelpText('after', '\nThe mock is the base URL (--base-url, TRX_RENT_BASE_URL, the profile) or the `trx-rent mock` running on this machine.')
    .action(action<[], AccountsOptions>(runAccounts));
}

async function runAccounts(ctx: Context, { opts }: { opts: AccountsOptions }) {
  const count = parseInteger(opts.count, '--count', { min: 1, max: 100 });
  const { baseUrl } = await ctx.config.settings(false);
  const url = baseUrl?.value ?? 'http://127.0.0.1:8787';
  const client = await ctx.clients.clientFor(url, undefined, { maxRetries: 0 });
  const { unknown: anything } = await import('zod');
  const { data } = await client.http.request({ method: 'GET', path: '/__mock/state', schema: anything(), auth: false });
  const seed = (data as { seed?: unknown } | null)?.seed;
  if (typeof seed !== 'number' || !Number.isSafeInteger(seed)) {
    throw new CliError('NOT_A_MOCK', `${url} is not a trx-rent mock (its /__mock/state names no seed)`, {
      hint: 'start one with `trx-rent mock`, or point --base-url at one',
    });
  }
  const [{ sandboxAccounts, SANDBOX_ACCOUNT_COUNT }, { chain }] = await Promise.all([import('../../mock/chain/sandbox.js'), ctx.chain.handlesFor(client, url)]);
  const accounts = await Promise.all(
    sandboxAccounts(seed, count).map(async (a) => {
      const held = await chain.balance(a.address, { token: 'USDT' });
      return { index: a.index, address: a.address, private_key: a.private_key, activated: held.activated, trx: held.trx, usdt: held.token?.balance ?? '0' };
    }),
  );
  ctx.out.result({ mock: url, seed, note: SANDBOX_KEYS_NOTE, accounts }, () => {
    const s = ctx.out.s;
    const funded = count > SANDBOX_ACCOUNT_COUNT ? ` (the first ${SANDBOX_ACCOUNT_COUNT} are funded at genesis)` : '';
    const lines = [
      `${s.bold('Available accounts')} on the mock at ${url} (seed ${seed})${funded}`,
      ...accounts.map((a) => `(${a.index}) ${a.address} (${a.trx} TRX, ${a.usdt} USDT${a.activated ? '' : ', not activated'})`),
      '',
      s.bold('Private keys'),
      ...accounts.map((a) => `(${a.index}) ${a.private_key}`),
      '',
      s.yellow(SANDBOX_KEYS_NOTE),
    ];
    return `${lines.join('\n')}\n`;
  });
}
