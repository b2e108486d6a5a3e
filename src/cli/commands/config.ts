import type { Command } from 'commander';
import { type Context, action } from '../context.js';
import { UsageError } from '../errors.js';
import { READABLE_KEYS, SETTABLE_KEYS, type ProfileSettings, validateProfileName } from '../config.js';
import { renderPairs } from '../tables.js';
import { parseAddress, parseChoice, parseDuration } from '../parse.js';
import { checkBaseUrl, originOf } from '../settings.js';
import type { CommandModule } from '../types.js';

/** What `config` shows for a profile: the key only as "set". */
function shown(settings: ProfileSettings | undefined): Record<string, string | null> {
  const out: Record<string, string | null> = {};
  for (const key of READABLE_KEYS) {
    const value = settings?.[key];
    out[key] = key === 'api_key' ? (value ? '(set)' : null) : (value ?? null);
  }
  return out;
}

async function checkValue(key: (typeof SETTABLE_KEYS)[number], value: string): Promise<string> {
  switch (key) {
    case 'base_url':
    case 'tron_node':
      checkBaseUrl({ value, source: { kind: 'flag', flag: `config set ${key}` } });
      try {
        const url = new URL(value);
        if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new Error();
      } catch {
        throw new UsageError(`${key} must be an http(s) URL, got ${JSON.stringify(value)}`);
      }
      return value;
    case 'default_address':
      return parseAddress(value, 'default_address');
    case 'default_duration':
      parseDuration(value, 'default_duration');
      return value;
  }
}

const command: CommandModule = {
  description:
    `Read and change the settings of a profile (--profile, TRX_RENT_PROFILE, or the current one). ` +
    `Keys: ${SETTABLE_KEYS.join(', ')}; api_key is saved only by \`trx-rent login\` and shown only as "(set)".`,
  register(cmd: Command) {
    cmd.command('get').description('print one setting').argument('<key>', READABLE_KEYS.join(' | ')).action(action<[string]>(runConfigGet));

    cmd
      .command('set')
      .description('change one setting (api_key: use `trx-rent login`)')
      .argument('<key>', SETTABLE_KEYS.join(' | '))
      .argument('<value>')
      .action(action<[string, string]>(runConfigSet));

    cmd
      .command('unset')
      .description('remove one setting (api_key included: forgets the saved key)')
      .argument('<key>', READABLE_KEYS.join(' | '))
      .action(action<[string]>(runConfigUnset));

    cmd.command('list').description("every setting of the profile, and the config file's path").action(action(runConfigList));
  },
};

async function runConfigGet(ctx: Context, { args: [keyArg] }: { args: [string] }) {
  const key = parseChoice(keyArg, READABLE_KEYS, 'key');
  const { name, settings } = await ctx.config.profile();
  const value = shown(settings)[key] ?? null;
  ctx.out.result({ profile: name, key, value }, () => value ?? ctx.out.s.dim('(not set)'));
}

async function runConfigSet(ctx: Context, { args: [keyArg, rawValue] }: { args: [string, string] }) {
  if (keyArg.trim().toLowerCase() === 'api_key') {
    throw new UsageError('api_key is not set with an argument (it would show in the process list)', 'run `trx-rent login`');
  }
  const key = parseChoice(keyArg, SETTABLE_KEYS, 'key');
  const value = await checkValue(key, rawValue.trim());
  const store = await ctx.config.store();
  const name = validateProfileName(await ctx.config.profileName());
  const current = store.getProfile(name);
  if (key === 'base_url' && current?.api_key && originOf(current.base_url) !== originOf(value)) {
    // The saved key is bound to the origin it was saved for: moving the profile would send it elsewhere.
    throw new UsageError(
      `profile ${name} holds an API key saved for ${originOf(current.base_url) ?? 'no base URL'}; it is not moved to ${originOf(value)}`,
      `run \`trx-rent login --base-url ${originOf(value)}${name === 'default' ? '' : ` --profile ${name}`}\` to save a key for the new origin`,
    );
  }
  store.updateProfile(name, { [key]: value });
  if (!store.currentProfile()) store.setCurrentProfile(name);
  ctx.out.result({ profile: name, key, value, config_path: store.path }, () => `${ctx.out.s.green('✓')} ${name}.${key} = ${value}`);
}

async function runConfigUnset(ctx: Context, { args: [keyArg] }: { args: [string] }) {
  const key = parseChoice(keyArg, READABLE_KEYS, 'key');
  const store = await ctx.config.store();
  const name = await ctx.config.profileName();
  if (store.getProfile(name)) store.updateProfile(name, { [key]: undefined });
  ctx.out.result({ profile: name, key, value: null }, () => `${ctx.out.s.green('✓')} ${name}.${key} removed`);
}

async function runConfigList(ctx: Context) {
  const store = await ctx.config.store();
  const { name, settings } = await ctx.config.profile();
  const values = shown(settings);
  ctx.out.result(
    { profile: name, exists: settings !== undefined, config_path: store.path, settings: values },
    () =>
      `${ctx.out.s.bold(`profile ${name}`)}${settings ? '' : ctx.out.s.dim(' (not saved yet)')}\n${renderPairs(
        Object.entries(values).map(([k, v]) => [k, v ?? ctx.out.s.dim('(not set)')]),
        ctx.out.s,
      )}${ctx.out.s.dim(store.path)}`,
  );
}

export default command;
