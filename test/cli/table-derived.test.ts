/**
 * What the CLI takes from the endpoint table (src/api/), held entry by entry, so a command cannot
 * drift from the operation it covers. Each entry names its command (`cli`, which
 * `test/api/api-md.test.ts` holds to exist); then:
 * - the command offers `--idempotency-key` exactly when the entry is keyed (`idempotent`), with
 *   the API's rules for a key in its help; `trx-rent api` names every keyed route;
 * - a paginated entry's command takes `--limit` with the entry's default, refuses a page over
 *   its `maxLimit` and takes one of that size;
 * - the x402 commands' own checks are the request schemas' (percent bounds, the rpc whitelist).
 */
import { Command, type Option } from 'commander';
import { describe, expect, it } from 'vitest';
import * as z from 'zod';
import { ENDPOINT_LIST, ENDPOINTS } from '../../src/api/endpoints.js';
import { LIMITS } from '../../src/cli/facts.js';
import { REGISTRY } from '../../src/cli/registry.js';
import { errorLine, json, runCliInProcess } from './run.js';

/** The commander command a table entry's `cli` names (`orders list`, `buy`), its module loaded. */
async function commandOf(path: string): Promise<Command> {
  const [name, ...rest] = path.split(' ');
  const entry = REGISTRY.find((r) => r.name === name);
  if (!entry) throw new Error(`no command ${name}`);
  let cmd = new Command(name);
  (await entry.load()).default.register?.(cmd, { loadAll: async () => new Command() });
  for (const sub of rest) {
    const child = cmd.commands.find((c) => c.name() === sub);
    if (!child) throw new Error(`no command ${path}`);
    cmd = child;
  }
  return cmd;
}

const option = (cmd: Command, long: string): Option | undefined => cmd.options.find((o) => o.long === long);

const bound = ENDPOINT_LIST.filter((e) => e.cli);
const keyed = ENDPOINT_LIST.filter((e) => e.idempotent);
const paginated = bound.filter((e) => e.pagination);

describe('keyed-ness: --idempotency-key', () => {
  it('the table has keyed entries with commands, and commands for most entries (the check is live)', () => {
    expect(keyed.filter((e) => e.cli).length).toBeGreaterThan(1);
    expect(bound.length).toBeGreaterThan(20);
  });

  it.each(bound.map((e) => [e.cli!, e] as const))('%s offers --idempotency-key exactly when its entry is keyed', async (cli, entry) => {
    const key = option(await commandOf(cli), '--idempotency-key');
    expect(Boolean(key), `${entry.id} (idempotent: ${entry.idempotent}) -> ${cli}`).toBe(entry.idempotent);
    if (!key) return;
    // The help says what the API takes and keeps: derived from the same limits the request core enforces.
    expect(key.description).toContain(`1-${LIMITS.IDEMPOTENCY_KEY_MAX_LENGTH} visible ASCII characters`);
    expect(key.description).toContain(`remembered ${LIMITS.IDEMPOTENCY_TTL_MS / 3_600_000} hours`);
  });

  it('trx-rent api offers it and names every keyed route of the table', async () => {
    const key = option(await commandOf('api'), '--idempotency-key');
    expect(key).toBeDefined();
    for (const e of keyed) expect(key!.description, e.id).toContain(`${e.method} ${e.path}`);
  });
});

describe('pagination: --limit', () => {
  it('the table has paginated entries with commands (the check is live)', () => {
    expect(paginated.length).toBeGreaterThan(0);
  });

  it.each(paginated.map((e) => [e.cli!, e] as const))('%s pages as its entry does', async (cli, entry) => {
    const { defaultLimit, maxLimit } = entry.pagination!;
    const limit = option(await commandOf(cli), '--limit');
    expect(limit, `${entry.id} -> ${cli}`).toBeDefined();
    expect(limit!.defaultValue).toBe(String(defaultLimit));
    expect(limit!.description).toContain(`1-${maxLimit}`);
    const args = cli.split(' ');
    // One over the table's largest page is a usage error before any request...
    const over = await runCliInProcess([...args, '--limit', String(maxLimit + 1), '--json'], {
      env: { TRX_RENT_BASE_URL: 'http://127.0.0.1:9', TRX_RENT_API_KEY: 'k' },
    });
    expect(over.code, over.stderr).toBe(2);
    expect(errorLine(over).message).toContain(`between 1 and ${maxLimit}`);
    // ...and the largest page itself is asked for (the mock's table refuses what the API would).
    const max = await runCliInProcess(['--mock', ...args, '--limit', String(maxLimit), '--json']);
    expect(max.code, max.stderr).toBe(0);
    expect(Array.isArray(json(max))).toBe(true);
  });
});

describe("the x402 commands' checks are the request schemas'", () => {
  /** The largest value a body field of the entry takes, read from its schema. */
  const maximum = (id: 'x402Receive' | 'x402SwapExecute', field: string): number => {
    const schema = z.toJSONSchema(ENDPOINTS[id].body as z.ZodType, { io: 'input' }) as { properties: Record<string, { maximum?: number }> };
    const max = schema.properties[field]?.maximum;
    if (max === undefined) throw new Error(`${id}.${field} has no maximum`);
    return max;
  };

  it.each([
    ['x402Receive', 'tolerance_pct', ['x402', 'receive', '1', '--tolerance']],
    ['x402SwapExecute', 'slippage_pct', ['x402', 'swap-execute', 'USDT', 'TRX', '1', '--slippage']],
  ] as const)("%s.%s: the CLI refuses above the schema's maximum and says it", async (id, field, args) => {
    expect(ENDPOINTS[id].cli).toBe(args.slice(0, 2).join(' '));
    const max = maximum(id, field);
    const r = await runCliInProcess([...args, String(max + 1), '--json'], { env: { TRX_RENT_BASE_URL: 'http://127.0.0.1:9' } });
    expect(r.code, r.stderr).toBe(2);
    expect(errorLine(r).message).toContain(`between 0 and ${max}`);
  });

  it("x402 rpc's help lists the table's whitelist, in its order", async () => {
    const methods = (ENDPOINTS.x402Rpc.params as unknown as z.ZodObject<{ method: z.ZodEnum }>).shape.method.options as string[];
    const arg = (await commandOf(ENDPOINTS.x402Rpc.cli)).registeredArguments.find((a) => a.name() === 'method');
    expect(arg!.description).toBe(methods.map((m) => m.replace(/^wallet\//, '')).join(', '));
  });
});
