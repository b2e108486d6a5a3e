import type { Command } from 'commander';
import { type Context, action } from '../context.js';
import { CliError, EXIT, UsageError } from '../errors.js';
import { validateProfileName } from '../config.js';
import { trxAndSun } from '../format.js';
import { renderPairs } from '../tables.js';
import { ENV, type Sourced, describeSource } from '../settings.js';
import type { CommandModule } from '../types.js';

const command: CommandModule = {
  description:
    'Save an API key to a profile after checking it with a real call. The key is asked for (hidden) ' +
    'on a terminal, or read from --api-key-file, TRX_RENT_API_KEY or stdin (--with-token); it is ' +
    'never accepted as an argument value, never printed, and stored in a 0600 file. In scripts, ' +
    'prefer the environment (TRX_RENT_API_KEY), a file (--api-key-file) or stdin (--with-token < key.txt).',
  register(cmd: Command) {
    cmd.option('--with-token', 'read the key from stdin (e.g. `trx-rent login --with-token < key.txt`)').action(action<[], LoginOptions>(runLogin));
  },
};

interface LoginOptions {
  withToken?: boolean;
}

async function runLogin(ctx: Context, { opts }: { opts: LoginOptions }) {
  const store = await ctx.config.store();
  const profileName = validateProfileName(await ctx.config.profileName());
  const existing = store.getProfile(profileName);

  const settings = ctx.config.resolver;
  // Base URL: flag > env > the profile's own > ask.
  let baseUrl = ctx.opts.mock ? (await ctx.mocks.embedded()).url : (settings.baseUrlOverride()?.value ?? existing?.base_url);
  // Key: --with-token (stdin) > --api-key-file > --mock > env > ask.
  let key: Sourced | undefined;
  if (opts.withToken) {
    if (ctx.stdin.isTTY)
      throw new UsageError('--with-token reads the key from stdin, but stdin is a terminal', 'pipe it: trx-rent login --with-token < key.txt');
    const value = (await ctx.readStdin()).trim();
    if (!value) throw new UsageError('no key on stdin');
    key = { value, source: { kind: 'stdin', flag: '--with-token' } };
  } else if (ctx.opts.mock && !ctx.opts.apiKeyFile) {
    key = { value: (await ctx.mocks.embedded()).apiKey, source: { kind: 'mock' } };
  } else {
    key = settings.apiKeyOverride();
  }
  if (key) ctx.debug(`API key from ${describeSource(key.source)}`);
  const apiKey = key?.value;
  const input = await ctx.ask.inputs<{ baseUrl: string; apiKey: string }>({
    baseUrl: {
      value: baseUrl,
      label: '--base-url URL',
      ask: async (p) =>
        (
          await p.input({
            message: 'API base URL?',
            validate: (v: string) => (/^https?:\/\/\S+$/.test(v.trim()) ? true : 'An http(s) URL, e.g. https://api.example.com'),
          })
        ).trim(),
    },
    apiKey: {
      value: apiKey,
      label: 'an API key (--api-key-file FILE, TRX_RENT_API_KEY or --with-token)',
      ask: async (p) =>
        (
          await p.password({
            message: 'API key (sk_live_…, input hidden)?',
            mask: '*',
            validate: (v: string) => (v.trim().length >= 8 ? true : 'That does not look like a key'),
          })
        ).trim(),
    },
  });
  baseUrl = input.baseUrl;
  try {
    new URL(baseUrl);
  } catch {
    throw new UsageError(`not a URL: ${JSON.stringify(baseUrl)}`);
  }

  // A real call proves the key before anything is saved. A key typed at the prompt and
  // rejected is asked for again (three tries), as a password prompt would.
  let balance: { trx: number } | undefined;
  let limited = false;
  for (let attempt = 1; ; attempt++) {
    const client = await ctx.clients.clientFor(baseUrl, input.apiKey, { maxRetries: 1 });
    try {
      balance = await (await client.get('balance')).get();
      break;
    } catch (error) {
      if ((error as { code?: string }).code === 'FORBIDDEN') {
        // A valid key without view_balance: the API knew it, which is what we check.
        limited = true;
        break;
      }
      if ((error as { code?: string }).code !== 'UNAUTHORIZED') throw error;
      if (apiKey !== undefined || !ctx.interactive || attempt >= 3) {
        throw new CliError('UNAUTHORIZED', `the API at ${baseUrl} rejected this key; nothing was saved`, {
          exitCode: EXIT.AUTH,
          hint: 'check the key (keys start with sk_live_) and --base-url',
        });
      }
      ctx.out.warn(`the API at ${baseUrl} rejected this key; try again (${3 - attempt} more ${3 - attempt === 1 ? 'try' : 'tries'})`);
      const { password } = await ctx.ask.prompts();
      input.apiKey = (
        await password({
          message: 'API key (sk_live_…, input hidden)?',
          mask: '*',
          validate: (v: string) => (v.trim().length >= 8 ? true : 'That does not look like a key'),
        })
      ).trim();
    }
  }

  store.setProfile(profileName, { ...existing, base_url: baseUrl, api_key: input.apiKey });
  if (!store.currentProfile()) store.setCurrentProfile(profileName);
  const result = {
    profile: profileName,
    base_url: baseUrl,
    saved: true,
    config_path: store.path,
    current: store.currentProfile() === profileName,
    ...(balance ? { balance_sun: balance.trx } : {}),
  };
  if (limited) ctx.out.warn('the key works but lacks view_balance; commands that need it will exit 3');
  // A key in the environment wins over the profile: a stale one would send the user
  // straight back here (the login loop).
  const envKey = ctx.env[ENV.apiKey]?.trim();
  if (envKey && envKey !== input.apiKey) {
    ctx.out.warn(`${ENV.apiKey} is set and overrides the key saved here: \`unset ${ENV.apiKey}\` to use it`);
  }
  ctx.out.result(
    result,
    () =>
      `${ctx.out.s.green('✓')} Logged in to ${baseUrl} as profile ${ctx.out.s.bold(profileName)}\n${renderPairs(
        [
          ['saved to', store.path],
          ...(balance ? ([['balance', trxAndSun(Number(balance.trx))]] as Array<[string, string]>) : []),
          ...(!result.current ? ([['note', `not the current profile: trx-rent profiles use ${profileName}`]] as Array<[string, string]>) : []),
        ],
        ctx.out.s,
      )}`,
  );
}

export default command;
