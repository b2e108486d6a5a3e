/**
 * `trx-rent keys create`: a new API key; its secret is shown this once, as the output.
 * @module
 */
import type { Command } from 'commander';
import { type Context, action } from '../../context.js';
import { formatTime } from '../../format.js';
import { renderPairs } from '../../tables.js';
import { PERMISSIONS } from '../../facts.js';
import { parseChoice, parseList } from '../../parse.js';

type Permission = (typeof PERMISSIONS)[number];

/** Add `keys create` to `cmd`. */
export function registerKeysCreate(cmd: Command): void {
  cmd
    .command('create')
    .description('create a key; the secret appears only in this output')
    .option('--name <name>', 'label for the key')
    .option('--permissions <list>', `comma-separated: ${PERMISSIONS.join(', ')}`)
    .action(action<[], KeysCreateOptions>(runKeysCreate));
}

interface KeysCreateOptions {
  name?: string;
  permissions?: string;
}

async function runKeysCreate(ctx: Context, { opts }: { opts: KeysCreateOptions }) {
  const input = await ctx.ask.inputs<{ name: string; permissions: Permission[] }>({
    name: {
      value: opts.name?.trim() || undefined,
      label: '--name NAME',
      ask: async (p) => (await p.input({ message: 'Name for the key?', validate: (v: string) => (v.trim() ? true : 'A name is required') })).trim(),
    },
    permissions: {
      value: opts.permissions ? parseList(opts.permissions).map((v) => parseChoice(v, PERMISSIONS, '--permissions')) : undefined,
      label: '--permissions LIST',
      ask: (p) =>
        p.checkbox({
          message: 'Permissions?',
          choices: PERMISSIONS.map((value) => ({ value, checked: value !== 'broadcast' })),
          required: true,
        }),
    },
  });
  const client = await ctx.clients.client();
  const key = await (await client.get('keys')).create({ name: input.name, permissions: input.permissions });
  ctx.out.warn('the key below is shown only once: store it now (e.g. in a password manager)');
  ctx.out.result(key, () =>
    renderPairs(
      [
        ['id', key.id],
        ['name', key.name],
        ['permissions', key.permissions.join(', ')],
        ['created', formatTime(key.created_at)],
        ['key', ctx.out.s.bold(String(key.key ?? '(not returned)'))],
      ],
      ctx.out.s,
    ),
  );
}
