/**
 * The read-only standing-rules tools: rules_check explains or names rule and field, rules_plan
 * reads and previews without spending (read-only server, no --allow-spend) and says why a quiet
 * rule is quiet, rules_log reads a journal with URL credentials masked; paths outside the working
 * directory and journals that are not there are refused.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type MockServer, startMockServer } from '../../src/mock/index.js';
import { type Connected, TARGET, call, connect, errorOf, ok } from './helpers.js';

let mock: MockServer;
let mcp: Connected;
let dir: string;
const rules = { rules: [{ id: 'hot', trigger: { type: 'energy_below', address: TARGET, energy: 65000 }, action: { type: 'ensure', energy: 100000 } }] };
beforeAll(async () => {
  mock = await startMockServer({ port: 0, rateLimits: false, seed: 35 });
  mcp = await connect(mock);
  dir = mkdtempSync(join(process.cwd(), '.tmp-rules-mcp-'));
});
afterAll(async () => {
  await mcp.close();
  await mock.close();
  rmSync(dir, { recursive: true, force: true });
});

describe('standing-rules MCP tools (read-only)', () => {
  it('rules_check explains a file, and names rule and field of a bad one', async () => {
    const file = join(dir, 'rules.json');
    writeFileSync(file, JSON.stringify(rules));
    const checked = ok<{ valid: boolean; rules: Array<{ explanation: string }> }>(
      await call(mcp.client, 'rules_check', { file: relative(process.cwd(), file) }),
    );
    expect(checked.valid).toBe(true);
    expect(checked.rules[0]!.explanation).toContain('can spend less than 65000 energy');
    const bad = errorOf(
      await call(mcp.client, 'rules_check', {
        rules: { rules: [{ id: 'hot', trigger: { type: 'energy_below', address: 'nope', energy: 1 }, action: { type: 'notify' } }] },
      }),
    );
    expect(bad.code).toBe('VALIDATION_ERROR');
    expect(bad.message).toContain('rule hot: trigger.address');
    expect(errorOf(await call(mcp.client, 'rules_check', { file: '/etc/passwd' })).code).toBe('VALIDATION_ERROR');
    // The same rules as YAML.
    const yaml = join(dir, 'rules.yaml');
    writeFileSync(
      yaml,
      `rules:\n  - id: hot\n    trigger: { type: energy_below, address: ${TARGET}, energy: 65000 }\n    action: { type: ensure, energy: 100000 }\n`,
    );
    const fromYaml = ok<{ valid: boolean; rules: Array<{ explanation: string }> }>(
      await call(mcp.client, 'rules_check', { file: relative(process.cwd(), yaml) }),
    );
    expect(fromYaml.rules).toEqual(checked.rules);
  });

  it('rules_plan says what would be bought and why a quiet rule is quiet, and nothing is ordered', async () => {
    const before = mock.state.balance(mock.state.demo.account_id).trx;
    const both = { rules: [...rules.rules, { id: 'nightly', trigger: { type: 'schedule', cron: '0 3 * * *' }, action: { type: 'notify' } }] };
    const plan = ok<{ decisions: Array<{ rule: string; outcome: string; cost_sun: number; reason?: string }>; quiet: string[] }>(
      await call(mcp.client, 'rules_plan', { rules: both }, 30_000),
    );
    expect(plan.decisions).toEqual([
      expect.objectContaining({ rule: 'nightly', outcome: 'nothing', reason: expect.stringMatching(/^schedule "0 3 \* \* \*" \(UTC\) not due: next at /) }),
      expect.objectContaining({ rule: 'hot', outcome: 'would_act' }),
    ]);
    expect(plan.quiet).toEqual(['nightly']);
    expect(plan.decisions[1]!.cost_sun).toBeGreaterThan(0);
    expect(mock.state.balance(mock.state.demo.account_id).trx).toBe(before);
    // A journal named but not there is refused, never read as empty.
    const missing = errorOf(await call(mcp.client, 'rules_plan', { rules, journal: relative(process.cwd(), join(dir, 'none.jsonl')) }));
    expect(missing.code).toBe('NOT_FOUND');
  });

  it('rules_log reads a journal', async () => {
    const journal = join(dir, 'j.jsonl');
    writeFileSync(
      journal,
      `${JSON.stringify({ ts: 1, kind: 'intent', rule: 'hot', key: 'k' })}\n${JSON.stringify({ ts: 2, kind: 'done', rule: 'hot', key: 'k', cost_sun: 5 })}\n{"torn`,
    );
    const log = ok<{ entries: Array<{ kind: string }> }>(await call(mcp.client, 'rules_log', { journal: relative(process.cwd(), journal) }));
    expect(log.entries.map((e) => e.kind)).toEqual(['intent', 'done']);
    expect(errorOf(await call(mcp.client, 'rules_log', { journal: relative(process.cwd(), join(dir, 'none.jsonl')) })).code).toBe('NOT_FOUND');
  });

  it('rules_log masks the credentials of a webhook URL in a journal line', async () => {
    const journal = join(dir, 'leaky.jsonl');
    writeFileSync(
      journal,
      `${JSON.stringify({ ts: 1, kind: 'notified', rule: 'hot', reason: 'webhook failed: https://alice:hunter2-secret@hooks.example/x', detail: { url: 'https://alice:hunter2-secret@hooks.example/x' } })}\n`,
    );
    const log = ok<{ entries: Array<{ reason: string; detail: { url: string } }> }>(
      await call(mcp.client, 'rules_log', { journal: relative(process.cwd(), journal) }),
    );
    expect(log.entries[0]).toMatchObject({
      reason: 'webhook failed: https://[redacted]@hooks.example/x',
      detail: { url: 'https://[redacted]@hooks.example/x' },
    });
    expect(JSON.stringify(log)).not.toContain('hunter2');
  });
});
