/**
 * `trx-rent rules`: check (in-process; webhook warnings, duplicate keys), plan and run (dry,
 * then --execute) in a pseudo-terminal (util-linux `script`), SIGTERM during a run, backtest
 * against the mock's price history (half-open), log; plan and log name their journal and refuse
 * a missing one; log masks credentials. The mock's order log is the judge of what was spent.
 */
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TrxRent, toTronAddress } from '../../src/index.js';
import { type MockServer, startMockServer } from '../../src/mock/index.js';
import { BIN, ROOT, cleanEnv, collect, inPty as pty, plain, tempDir } from './helpers.js';
import { freePort } from '../helpers/ports.js';
import { errorLine, json, runCliInProcess } from './run.js';

const hasScript = spawnSync('script', ['--version']).status === 0;
const TARGET = toTronAddress(`41${'00'.repeat(19)}77`);

let mock: MockServer;
let dir: string;
let file: string;
let env: Record<string, string>;
beforeAll(async () => {
  mock = await startMockServer({ port: 0, rateLimits: false, seed: 33 });
  // The rentals' target is an account (a rental to a never-activated address fails).
  mock.state.chain.activate(TARGET);
  env = { TRX_RENT_BASE_URL: mock.url, TRX_RENT_API_KEY: mock.apiKey, TRX_RENT_TRON_NODE: mock.url };
  dir = tempDir('trx-rent-rules-');
  file = join(dir, 'rules.json');
  writeFileSync(
    file,
    JSON.stringify({
      rules: [
        {
          id: 'hot-wallet',
          trigger: { type: 'energy_below', address: TARGET, energy: 65_000 },
          action: { type: 'ensure', energy: 100_000, duration: '1h' },
          limits: { max_spend_per_day: '50' },
        },
        { id: 'nightly', trigger: { type: 'schedule', cron: '0 3 * * *' }, action: { type: 'notify', message: 'hi' } },
      ],
    }),
  );
});
afterAll(async () => {
  await mock?.close();
});

/** A rules command in a pseudo-terminal, with this file's environment. */
const inPty = (args: string[], timeoutMs = 20_000) => pty(args, [], env, timeoutMs);

const ordersFor = async () =>
  (await new TrxRent({ baseUrl: mock.url, apiKey: mock.apiKey }).orders.list({ limit: 100 })).orders.filter((o) => o.target_address === TARGET);

describe('rules check', () => {
  it('explains each rule in words', async () => {
    const r = await runCliInProcess(['rules', 'check', file], { env });
    expect(r.code, r.stderr).toBe(0);
    const checked = json<{ valid: boolean; rules: Array<{ explanation: string }> }>(r);
    expect(checked.valid).toBe(true);
    expect(checked.rules[0]!.explanation).toContain(`hot-wallet: when ${TARGET} can spend less than 65000 energy, make sure ${TARGET} can spend 100000 energy`);
    expect(checked.rules[0]!.explanation).toContain('at most 50 TRX per 24 h');
  });

  it('reads a YAML file (.yaml or .yml) through the same schemas, errors naming rule and field', async () => {
    const yaml = join(dir, 'rules.yml');
    writeFileSync(
      yaml,
      `rules:\n  - id: y\n    trigger: { type: energy_below, address: ${TARGET}, energy: 65000 }\n    action: { type: ensure, energy: 100000 }\n    limits: { max_spend_per_day: "50" }\n`,
    );
    const r = await runCliInProcess(['rules', 'check', yaml], { env });
    expect(r.code, r.stderr).toBe(0);
    expect(json<{ rules: Array<{ id: string; explanation: string }> }>(r).rules[0]!.explanation).toContain(
      `y: when ${TARGET} can spend less than 65000 energy`,
    );
    writeFileSync(yaml, 'rules:\n  - id: y\n    trigger: { type: energy_below, address: nowhere, energy: 65000 }\n    action: { type: notify }\n');
    const bad = await runCliInProcess(['rules', 'check', yaml], { env });
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain('rule y: trigger.address');
  });

  it('a bad file exits 2 naming the rule and the field', async () => {
    const bad = join(dir, 'bad.json');
    writeFileSync(bad, JSON.stringify({ rules: [{ id: 'w', trigger: { type: 'energy_below', address: TARGET, energy: -1 }, action: { type: 'notify' } }] }));
    const r = await runCliInProcess(['rules', 'check', bad], { env });
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('rule w: trigger.energy');
  });
});

describe.skipIf(!hasScript)('rules plan and run in a pseudo-terminal', { timeout: 60_000 }, () => {
  it('plan says what would be bought and why a quiet rule is quiet, and spends nothing', async () => {
    const r = await inPty(['rules', 'plan', file, '--allow-missing-journal']);
    expect(r.code, r.output).toBe(0);
    expect(r.output).toContain(`Journal: none at ${resolve('rules.journal.jsonl')} (the default; no --journal given): reading it as empty`);
    expect(r.output).toMatch(/hot-wallet: would act - ensure: rent 100000 energy to T\w+ for 3600 s \([\d.]+ TRX\)/);
    expect(r.output).toMatch(/nightly: nothing - schedule "0 3 \* \* \*" \(UTC\) not due: next at \d{4}-\d\d-\d\dT03:00Z/);
    expect(await ordersFor()).toHaveLength(0);
  });

  it('run is a dry run by default, then --execute buys once and journals it', async () => {
    const journal = join(dir, 'journal.jsonl');
    const dry = await inPty(['rules', 'run', file, '--max-ticks', '1', '--tick', '1s', '--journal', journal]);
    expect(dry.code, dry.output).toBe(0);
    expect(dry.output).toContain('Dry run (no spend; --execute to spend)');
    expect(dry.output).toMatch(/hot-wallet: would act/);
    expect(await ordersFor()).toHaveLength(0);

    const wet = await inPty(['rules', 'run', file, '--execute', '--max-ticks', '2', '--tick', '1s', '--journal', journal]);
    expect(wet.code, wet.output).toBe(0);
    expect(wet.output).toMatch(/hot-wallet: acted - ensure: rent 100000 energy .* orders \S+/);
    expect(wet.output).toMatch(/Stopped after 2 ticks: 1 actions/);
    // The status line on the terminal (stderr, redrawn after each tick).
    expect(wet.output).toMatch(/tick \d+: 1 addresses, \d+ node reads, 1 actions, [\d.]+ TRX/);
    const orders = await ordersFor();
    expect(orders).toHaveLength(1);
    const lines = readFileSync(journal, 'utf8')
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as { kind: string; order_ids?: string[] });
    // The order is journaled (its key and request) before it is placed: a lost answer is looked up by key.
    expect(lines.map((l) => l.kind)).toEqual(['trigger', 'intent', 'ordering', 'done']);
    expect(lines[3]!.order_ids).toEqual([orders[0]!.id]);

    const log = await runCliInProcess(['rules', 'log', '--journal', journal, '--json'], { env });
    expect(json<Array<{ kind: string }>>(log).map((e) => e.kind)).toEqual(['trigger', 'intent', 'ordering', 'done']);
    expect(log.stderr).toContain(`Journal: ${resolve(journal)}`);

    // The plan counts from that journal, named on stderr: the window is done, nothing would be bought twice.
    const planned = await runCliInProcess(['rules', 'plan', file, '--journal', journal, '--json'], { env });
    expect(planned.code, planned.stderr).toBe(0);
    expect(planned.stderr).toContain(`Journal: ${resolve(journal)}`);
    const plan = json<{ journal: string; decisions: Array<{ rule: string; outcome: string }>; quiet: string[] }>(planned);
    expect(plan.journal).toBe(resolve(journal));
    expect(plan.decisions.find((d) => d.rule === 'hot-wallet')?.outcome).not.toBe('would_act');
    expect(plan.quiet).toContain('nightly');
  });
});

describe('rules plan and log: the journal they read', () => {
  const DEFAULT = resolve('rules.journal.jsonl');

  it('without --journal, a missing default journal is refused (JOURNAL_NOT_FOUND, exit 4) and named; --allow-missing-journal reads none', async () => {
    expect(existsSync(DEFAULT), `${DEFAULT} must not exist for this test`).toBe(false);
    for (const args of [
      ['rules', 'log'],
      ['rules', 'plan', file],
    ]) {
      const r = await runCliInProcess([...args, '--json'], { env });
      expect(r.code, r.stderr).toBe(4);
      const error = errorLine(r);
      expect(error.code).toBe('JOURNAL_NOT_FOUND');
      expect(error.message).toBe(`no rules journal at ${DEFAULT} (the default; no --journal given)`);
      expect(error.hint).toContain('--allow-missing-journal');
      expect(r.stdout).toBe('');
    }
    const missing = join(dir, 'nowhere.jsonl');
    const given = await runCliInProcess(['rules', 'log', '--journal', missing, '--json'], { env });
    expect(given.code).toBe(4);
    expect(errorLine(given).message).toBe(`no rules journal at ${missing}`);
    const allowed = await runCliInProcess(['rules', 'log', '--allow-missing-journal', '--json'], { env });
    expect(allowed.code, allowed.stderr).toBe(0);
    expect(json(allowed)).toEqual([]);
    expect(allowed.stderr).toContain(`Journal: none at ${DEFAULT} (the default; no --journal given): reading it as empty (--allow-missing-journal)`);
  });

  it('log masks the credentials of a URL in a journal line (human and JSON)', async () => {
    const journal = join(dir, 'leaky.jsonl');
    writeFileSync(
      journal,
      `${JSON.stringify({ ts: 1, kind: 'notified', rule: 'hot-wallet', reason: 'webhook failed: POST https://alice:hunter2-secret@hooks.example/x refused', detail: { url: 'https://alice:hunter2-secret@hooks.example/x' } })}\n`,
    );
    const asJson = await runCliInProcess(['rules', 'log', '--journal', journal, '--json'], { env });
    expect(asJson.code, asJson.stderr).toBe(0);
    expect(asJson.stdout).not.toContain('hunter2');
    expect(json<Array<{ reason: string; detail: { url: string } }>>(asJson)[0]).toMatchObject({
      reason: 'webhook failed: POST https://[redacted]@hooks.example/x refused',
      detail: { url: 'https://[redacted]@hooks.example/x' },
    });
    const human = await runCliInProcess(['rules', 'log', '--journal', journal, '--no-json'], { env });
    expect(human.code, human.stderr).toBe(0);
    expect(human.stdout).toContain('https://[redacted]@hooks.example/x');
    expect(human.stdout + human.stderr).not.toContain('hunter2');
  });
});

describe('rules check: webhooks and duplicate keys', () => {
  it('warns about a webhook whose secret variable is unset and one nobody listens on; --offline skips the probe', async () => {
    const dead = await freePort();
    const hooked = join(dir, 'hooked.json');
    writeFileSync(
      hooked,
      JSON.stringify({
        notify: { webhook: { url: `http://carol:pw-secret-123@127.0.0.1:${dead}/hook`, secret_env: 'RULES_HOOK_SECRET' } },
        rules: [{ id: 'nightly', trigger: { type: 'schedule', cron: '0 3 * * *' }, action: { type: 'notify' } }],
      }),
    );
    const r = await runCliInProcess(['rules', 'check', hooked, '--json'], { env });
    expect(r.code, r.stderr).toBe(0);
    const warnings = json<{ warnings: string[] }>(r).warnings;
    expect(warnings).toEqual([
      `notify webhook http://[redacted]@127.0.0.1:${dead}/hook (rule nightly): RULES_HOOK_SECRET is not set, so its events cannot be signed and are not sent (each is journaled as not sent)`,
      `notify webhook http://[redacted]@127.0.0.1:${dead}/hook (rule nightly): cannot be reached (ECONNREFUSED 127.0.0.1:${dead})`,
    ]);
    expect(r.stderr).toContain('RULES_HOOK_SECRET is not set');
    expect(r.stdout + r.stderr).not.toContain('pw-secret-123');
    const offline = await runCliInProcess(['rules', 'check', hooked, '--offline', '--json'], { env: { ...env, RULES_HOOK_SECRET: 'whsec_x' } });
    expect(json<{ warnings: string[] }>(offline).warnings).toEqual([]);
    const clean = await runCliInProcess(['rules', 'check', file, '--json'], { env });
    expect(json<{ warnings: string[] }>(clean).warnings).toEqual([]);
  });

  it('rules run warns at start about a webhook it cannot sign', async () => {
    const hooked = join(dir, 'hooked-run.json');
    writeFileSync(
      hooked,
      JSON.stringify({
        notify: { webhook: { url: 'http://dave:pw-secret-456@127.0.0.1:9/hook', secret_env: 'RULES_HOOK_SECRET' } },
        rules: [{ id: 'nightly', trigger: { type: 'schedule', cron: '0 3 1 1 *' }, action: { type: 'notify' } }],
      }),
    );
    const r = await runCliInProcess(['rules', 'run', hooked, '--max-ticks', '1', '--tick', '1s', '--json', '--journal', join(dir, 'hooked-run.jsonl')], {
      env,
    });
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).toContain('notify webhook http://[redacted]@127.0.0.1:9/hook (rule nightly): RULES_HOOK_SECRET is not set');
    expect(r.stdout + r.stderr).not.toContain('pw-secret-456');
  });

  it('a key written twice exits 2 naming the key and its line', async () => {
    const twice = join(dir, 'twice.json');
    writeFileSync(
      twice,
      `{\n  "rules": [\n    { "id": "w", "trigger": { "type": "schedule", "cron": "0 3 * * *" }, "action": { "type": "notify" },\n      "limits": { "max_spend_per_day": "1", "max_spend_per_day": "1000" } }\n  ]\n}\n`,
    );
    const r = await runCliInProcess(['rules', 'check', twice], { env });
    expect(r.code).toBe(2);
    expect(errorLine(r).message).toContain('rule w: limits.max_spend_per_day: duplicate key "max_spend_per_day" on line 4');
  });
});

describe('rules run under SIGTERM, and backtest', () => {
  it('SIGTERM stops the runner after the step in flight, exit 0', async () => {
    // A rule that fires on every tick (any price is below 1 TRX per unit), so the runner is busy.
    const busy = join(dir, 'busy.json');
    writeFileSync(
      busy,
      JSON.stringify({
        rules: [{ id: 'always', trigger: { type: 'price_below', price_sun: 1_000_000 }, action: { type: 'notify' }, limits: { min_interval: '1s' } }],
      }),
    );
    const child = spawn(process.execPath, [BIN, 'rules', 'run', busy, '--json', '--tick', '1s', '--journal', join(dir, 'term.jsonl')], {
      cwd: ROOT,
      env: cleanEnv(env),
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    let seen = '';
    child.stdout.on('data', (d: Buffer) => {
      seen += d.toString();
      if (seen.includes('"decision"') && !child.killed) child.kill('SIGTERM');
    });
    const r = await collect(child, { timeoutMs: 20_000 });
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toContain('"type":"decision"');
    // NDJSON throughout: every line a document, the last one the summary.
    const lines = r.stdout
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as { type?: string; event?: string; stats?: { ticks: number } });
    expect(lines.filter((l) => l.type === 'decision').length).toBeGreaterThanOrEqual(1);
    const result = lines.at(-1)!;
    expect(result.type).toBe('stopped');
    expect(result.stats!.ticks).toBeGreaterThanOrEqual(1);
  }, 30_000);

  it('backtest replays the price history: runs and spend against burning', async () => {
    const r = await runCliInProcess(['rules', 'backtest', file, '--days', '7', '--json'], { env, timeoutMs: 20_000 });
    expect(r.code, r.stderr).toBe(0);
    const result = json<{ runs: number; spend_sun: number; burn_all_sun: number; price_points: number; rules: Array<{ rule: string; runs: number }> }>(r);
    expect(result.price_points).toBeGreaterThan(10);
    expect(result.runs).toBeGreaterThan(0);
    expect(result.spend_sun).toBeGreaterThan(0);
    expect(result.spend_sun).toBeLessThan(result.burn_all_sun);
    expect(result.rules.find((x) => x.rule === 'nightly')!.runs).toBe(7);
    if (!hasScript) return;
    const human = await inPty(['rules', 'backtest', file, '--days', '7']);
    expect(human.output).toMatch(/hot-wallet: \d+ runs, [\d.]+ TRX/);
    expect(human.output).toMatch(/burning for all \d+ energy would have cost [\d.]+ TRX/);
  });

  it('backtest --days 1 is 24 hours, half-open: max_runs_per_day 1 is one run', async () => {
    const once = join(dir, 'once.json');
    writeFileSync(
      once,
      JSON.stringify({
        rules: [
          {
            id: 'cheap',
            trigger: { type: 'price_below', price_sun: 1_000_000 },
            action: { type: 'buy', address: TARGET, amount: 65_000 },
            limits: { max_runs_per_day: 1 },
          },
        ],
      }),
    );
    const r = await runCliInProcess(['rules', 'backtest', once, '--days', '1', '--json'], { env, timeoutMs: 20_000 });
    expect(r.code, r.stderr).toBe(0);
    const result = json<{ from: string; to: string; rules: Array<{ rule: string; runs: number }> }>(r);
    expect(Date.parse(result.to) - Date.parse(result.from)).toBe(24 * 3600_000);
    expect(result.rules).toEqual([expect.objectContaining({ rule: 'cheap', runs: 1 })]);
  });
});
