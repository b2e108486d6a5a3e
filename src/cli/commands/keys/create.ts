import type { Command } from 'commander';
import { type Context, action } from '../context.js';
import { UsageError } from '../errors.js';
import { formatTime } from '../format.js';
import { renderPairs } from '../tables.js';
import { PERMISSIONS } from '../facts.js';
import { parseChoice, parseList } from '../parse.js';
import type { CommandModule } from '../types.js';

type Permission = (typeof PERMISSIONS)[number];

const command: CommandModule = {
  description:
    'Create an API key (its secret is printed once, as the command\'s output) or revoke one ' +
    '(immediate and irreversible; asks to confirm unless --yes).',
  register(cmd: Command) {
    cmd
      .command('create')
      .description('create a key; the secret appears only in this output')
      .option('--name <name>', 'label for the key')
      .option('--permissions <list>', `comma-separated: ${PERMISSIONS.join(', ')}`)
      .action(action<[], KeysCreateOptions>(runKeysCreate));

    // `keys list` is what people try first; the API cannot list keys, so say so and what to do instead.
    cmd
      .command('list')
      .description('(keys cannot be listed: explains why and what to do)')
      .action(action(runKeysList));

    cmd
      .command('revoke')
      .description('revoke a key at once (requests with it then fail with 401)')
      .argument('[id]', 'key id')
      .action(action<[string?]>(runKeysRevoke));
  },
};

interface KeysCreateOptions {
  name?: string;
  permissions?: string;
}

async function runKeysCreate(ctx: Context, { opts }: { opts: KeysCreateOptions }) {
  const input = await ctx.ask.inputs<{ name: string; permissions: Permission[] }>({
    name: {
      value: opts.name?.trim() || undefined,
      label: '--name NAME',
      ask: async (p) =>
        (await p.input({ message: 'Name for the key?', validate: (v: string) => (v.trim() ? true : 'A name is required') })).trim(),
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

async function runKeysList() {
  throw new UsageError(
    'API keys cannot be listed: the API has no endpoint for it (a secret is shown once, when the key is created)',
    'see which key this profile uses with `trx-rent status`; make one with `trx-rent keys create`; revoke one by its id with `trx-rent keys revoke ID`',
    'NOT_AVAILABLE',
  );
}

async function runKeysRevoke(ctx: Context, { args: [idArg] }: { args: [string?] }) {
  const { id } = await ctx.ask.inputs<{ id: string }>({
    id: {
      value: idArg?.trim() || undefined,
      label: '<id>',
      ask: async (p) => (await p.input({ message: 'Key id to revoke?', validate: (v: string) => (v.trim() ? true : 'required') })).trim(),
    },
  });
  await ctx.ask.confirm(`Revoke key ${id}? Anything using it stops working at once.`, 'revoke the key');
  const client = await ctx.clients.client();
  const result = await (await client.get('keys')).revoke(id);
  ctx.out.result({ id, ...result }, () => `${ctx.out.s.green('✓')} Key ${id} revoked.`);
}

export default command;
