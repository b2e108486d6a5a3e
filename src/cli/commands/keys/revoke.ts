/**
 * `trx-rent keys revoke [id]`: revoke an API key at once (asks to confirm unless --yes).
 * @module
 */
import type { Command } from 'commander';
import { type Context, action } from '../../context.js';

/** Add `keys revoke` to `cmd`. */
export function registerKeysRevoke(cmd: Command): void {
  cmd
    .command('revoke')
    .description('revoke a key at once (requests with it then fail with 401)')
    .argument('[id]', 'key id')
    .action(action<[string?]>(runKeysRevoke));
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
