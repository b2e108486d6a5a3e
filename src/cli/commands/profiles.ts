import type { Command } from 'commander';
import { type Context, action } from '../context.js';
import { UsageError } from '../errors.js';
import { validateProfileName } from '../config.js';
import { outputSchema } from '../output.js';
import { renderTable } from '../tables.js';
import type { CommandModule } from '../types.js';

const command: CommandModule = {
  description: 'List saved profiles (the current one is marked), switch the current one, or remove one.',
  register(cmd: Command) {
    cmd.command('list', { isDefault: true }).description('saved profiles (default)').action(action(runList));

    cmd.command('use').description('make a profile the current one').argument('<name>').action(action(runUse));

    cmd.command('remove').description('delete a profile and its saved key (asks to confirm unless --yes)').argument('<name>').action(action(runRemove));
  },
};

/** The fields of one `profiles list` entry. */
const PROFILE_FIELDS = ['name', 'current', 'active', 'base_url', 'api_key'] as const;

async function runList(ctx: Context): Promise<number | void> {
  const store = await ctx.config.store();
  const current = store.currentProfile();
  const active = ctx.opts.profile || ctx.env.TRX_RENT_PROFILE || current || 'default';
  const profiles = Object.entries(store.profiles()).map(([name, p]) => ({
    name,
    current: name === current,
    active: name === active,
    base_url: p.base_url ?? null,
    api_key: p.api_key ? '(set)' : null,
  }));
  // A list is an array (each entry says whether it is current and active); the file's path is in `config list`.
  ctx.out.result(
    profiles,
    () => {
      const s = ctx.out.s;
      if (!profiles.length) return s.dim('No profiles yet: run `trx-rent login`.');
      return renderTable(
        [{ header: '' }, { header: 'PROFILE', shrink: 0 }, { header: 'BASE URL', truncate: 'middle', min: 20 }, { header: 'API KEY', truncate: 'none' }],
        profiles.map((p) => [p.active ? s.green('*') : '', p.name, p.base_url ?? s.dim('-'), p.api_key ?? s.dim('-')]),
        s,
      );
    },
    outputSchema(PROFILE_FIELDS),
  );
}

async function runUse(ctx: Context, { args: [name] }: { args: [string]; opts: Record<string, unknown>; cmd: Command }): Promise<number | void> {
  validateProfileName(name);
  const store = await ctx.config.store();
  if (!store.getProfile(name)) throw new UsageError(`profile "${name}" does not exist`, 'create it with `trx-rent login --profile NAME`');
  store.setCurrentProfile(name);
  ctx.out.result({ current: name }, () => `${ctx.out.s.green('✓')} Now using profile ${name}`);
}

async function runRemove(ctx: Context, { args: [name] }: { args: [string]; opts: Record<string, unknown>; cmd: Command }): Promise<number | void> {
  const store = await ctx.config.store();
  const profile = store.getProfile(name);
  if (!profile) throw new UsageError(`profile "${name}" does not exist`, 'list them with `trx-rent profiles`');
  await ctx.ask.confirm(
    `Remove profile ${name}${profile.base_url ? ` (${profile.base_url})` : ''}${profile.api_key ? ' and its saved API key' : ''}?`,
    'remove the profile',
  );
  store.removeProfile(name);
  ctx.out.result({ removed: name }, () => `${ctx.out.s.green('✓')} Removed profile ${name}`);
}

export default command;
