/**
 * Start-up behaviour: --help/--version, lazy loading, usage errors, colour, completion scripts.
 * The real process (spawned from the build) where the process itself is the point: --version,
 * --help, what start-up loads, a usage error's exit status, the bash script; the rest in-process.
 */
import { execFileSync, spawn, spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type MockServer, startMockServer } from '../../src/mock/index.js';
import { BIN, ROOT, cleanEnv, errorLine, runCli, tempDir } from './helpers.js';
import { runCliInProcess } from './run.js';
import { writeFileSync } from 'node:fs';

const pkg = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { version: string };
const HEAVY = /node_modules\/(ky|zod|conf|ajv|msw|tronweb|viem|ox|@inquirer|@x402|x402-fetch|@noble|@scure)\//;
const HEAVY_CJS = /^cjs:(ky|zod|conf|ajv|msw|tronweb|viem|ethers|@inquirer\/|@x402\/)/;

let mock: MockServer;
beforeAll(async () => {
  mock = await startMockServer({ port: 0, rateLimits: false });
});
afterAll(async () => {
  await mock?.close();
});

/**
 * Run the CLI with the load recorder; returns the exit code and every module it loaded. (Async:
 * a blocking spawn would stall the in-process mock server the CLI talks to.)
 */
async function loads(args: string[], env: Record<string, string> = {}): Promise<{ code: number | null; modules: string[] }> {
  const log = join(tempDir(), 'loads.log');
  const child = spawn(process.execPath, ['--import', new URL('./fixtures/record-loads.mjs', import.meta.url).href, BIN, ...args], {
    cwd: ROOT,
    env: cleanEnv({ TRX_RENT_LOAD_LOG: log, ...env }),
    stdio: 'ignore',
  });
  const timer = setTimeout(() => child.kill('SIGKILL'), 15_000);
  const code = await new Promise<number | null>((resolve) => child.on('close', resolve));
  clearTimeout(timer);
  let modules: string[] = [];
  try {
    modules = readFileSync(log, 'utf8').split('\n').filter(Boolean);
  } catch {
    // nothing recorded
  }
  return { code, modules };
}

describe('--version and --help', () => {
  it('--version prints the package version', async () => {
    for (const flag of ['--version', '-V']) {
      const r = await runCli([flag]);
      expect(r.code).toBe(0);
      expect(r.stdout).toBe(`${pkg.version}\n`);
    }
  });

  it('--help lists every command in groups, the settings precedence and the exit codes', async () => {
    const r = await runCli(['--help']);
    expect(r.code).toBe(0);
    for (const name of [
      'login',
      'config',
      'profiles',
      'prices',
      'preview',
      'buy',
      'orders',
      'balance',
      'history',
      'deposit',
      'withdraw',
      'keys',
      'webhooks',
      'mock',
      'demo',
      'completion',
      'x402',
    ]) {
      expect(r.stdout).toMatch(new RegExp(`^  ${name}\\s`, 'm'));
    }
    expect(r.stdout).toContain('Trading:');
    expect(r.stdout).toContain('Settings (flag > environment > profile)');
    expect(r.stdout).toContain('5 rate limited');
    expect(r.stdout).not.toMatch(/--api-key\b(?!-file)/);
  });

  it("a command's own --help and `help <command>` show its options", async () => {
    const own = await runCliInProcess(['buy', '--help']);
    expect(own.code).toBe(0);
    expect(own.stdout).toContain('Usage: trx-rent buy <amount> [energy|bandwidth] --to ADDRESS --duration 1h');
    expect(own.stdout).toContain('--max-price <sun>');
    // gh-like: the command's own options and EXAMPLES; the global options once, at the top level.
    expect(own.stdout).not.toContain('Global Options:');
    expect(own.stdout).toMatch(/Examples:\n {2}\$ trx-rent buy 65000 --to \S+ --duration 1h --wait\n/);
    expect(own.stdout).toMatch(/Global options \(--json \[FIELDS\][\s\S]*see `trx-rent --help`/);
    for (const args of [
      ['orders', 'get', '--help'],
      ['history', '--help'],
      ['x402', 'prices', '--help'],
      ['prices', '--help'],
    ]) {
      const r = await runCliInProcess(args);
      const examples = /Examples:\n((?: {2}\$ .+\n)+)/.exec(r.stdout)?.[1]?.trim().split('\n') ?? [];
      expect(examples.length, args.join(' ')).toBeGreaterThanOrEqual(2);
      expect(
        examples.every((e) => e.startsWith(`  $ trx-rent`) || e.startsWith('$ trx-rent')),
        args.join(' '),
      ).toBe(true);
    }
    const viaHelp = await runCliInProcess(['help', 'orders']);
    expect(viaHelp.code).toBe(0);
    expect(viaHelp.stdout).toMatch(/list \[options\]/);
    expect(viaHelp.stdout).toContain('wait [options] [id]');
  });
});

describe('lazy loading', () => {
  it('--version and --help load no SDK transport, zod, conf, prompts, msw, tronweb or viem', async () => {
    for (const args of [['--version'], ['--help'], ['buy', '--help'], ['webhooks', 'listen', '--help'], ['help', 'demo'], ['x402', '--help']]) {
      const { code, modules } = await loads(args);
      expect(code, args.join(' ')).toBe(0);
      expect(
        modules.some((m) => m.includes('/dist/cli/index.js')),
        args.join(' '),
      ).toBe(true);
      expect(
        modules.filter((m) => HEAVY.test(m) || HEAVY_CJS.test(m)),
        args.join(' '),
      ).toEqual([]);
    }
    // --version does not even load commander.
    expect((await loads(['--version'])).modules.filter((m) => m.includes('commander'))).toEqual([]);
  });

  it('the recorder does see the SDK when a command really uses it (so the check above can fail)', async () => {
    const { code, modules } = await loads(['prices', '--json'], { TRX_RENT_BASE_URL: mock.url });
    expect(code).toBe(0);
    expect(modules.some((m) => /node_modules\/zod\//.test(m))).toBe(true);
    // Settings came from the environment: the config store (conf + ajv) was never opened.
    expect(modules.filter((m) => /node_modules\/(conf|ajv)\//.test(m))).toEqual([]);
    expect(modules.filter((m) => /node_modules\/(@inquirer|msw|tronweb|viem)\//.test(m))).toEqual([]);
  });
});

describe('usage errors (exit 2)', () => {
  it('unknown command, unknown option, excess arguments, bad choice', async () => {
    const cases: Array<[string[], RegExp]> = [
      [['buyy'], /unknown command 'buyy' \(Did you mean buy\?\)/],
      [['prices', '--frob'], /unknown option '--frob'/],
      [['balance', 'extra'], /too many arguments/],
      [['orders', 'list', '--status', 'DONE'], /--status must be one of PENDING, EXECUTING, FILLED, FAILED/],
      [['orders', 'list', '--limit', '1000'], /--limit must be a whole number between 1 and 100/],
      [['completion', 'powershell'], /shell must be one of bash, zsh, fish/],
    ];
    for (const [args, message] of cases) {
      const r = await runCliInProcess([...args, '--json'], { env: { TRX_RENT_BASE_URL: mock.url, TRX_RENT_API_KEY: mock.apiKey } });
      expect(r.code, args.join(' ')).toBe(2);
      expect(r.stdout, args.join(' ')).toBe('');
      expect(errorLine(r).message, args.join(' ')).toMatch(message);
    }
  });

  it('the real process exits with status 2 and one JSON error line on stderr', async () => {
    const r = await runCli(['buyy', '--json']);
    expect(r.code).toBe(2);
    expect(r.signal).toBeNull();
    expect(r.stdout).toBe('');
    expect(errorLine(r)).toMatchObject({ code: 'USAGE_ERROR', exit_code: 2 });
    expect(errorLine(r).message).toMatch(/unknown command 'buyy'/);
  });

  it('errors are one line on stderr for people, with code and hint', async () => {
    const r = await runCliInProcess(['orders', 'get', 'nope', '--no-json'], { env: { TRX_RENT_BASE_URL: mock.url, TRX_RENT_API_KEY: mock.apiKey } });
    expect(r.code).toBe(4);
    expect(r.stderr.trim().split('\n')).toHaveLength(1);
    expect(r.stderr).toMatch(/^error NOT_FOUND: .+ \(hint: check the id with `trx-rent orders list`\)\n$/);
  });

  it('the x402 command (its own module, from the x402 work) is reached through the registry', async () => {
    const r = await runCliInProcess(['x402', '--help']);
    expect(r.code).toBe(0);
    expect(r.stdout).toContain('Usage: trx-rent x402');
  });
});

describe('in-process runs', () => {
  it('side by side and one after another share no state: exit code, output mode, colour, commander message', async () => {
    const env = { TRX_RENT_BASE_URL: mock.url, TRX_RENT_API_KEY: mock.apiKey };
    const [bad, good, coloured, missing] = await Promise.all([
      runCliInProcess(['balance', '--frob', '--json'], { env }),
      runCliInProcess(['balance', '--no-json'], { env }),
      runCliInProcess(['balance', '--no-json'], { env: { ...env, FORCE_COLOR: '1' } }),
      runCliInProcess(['orders', 'get', '00000000-0000-0000-0000-000000000000', '--json'], { env }),
    ]);
    expect(bad.code).toBe(2);
    expect(errorLine(bad).message).toMatch(/unknown option '--frob'/);
    expect(good.code).toBe(0);
    expect(good.stdout).toMatch(/TRX available/);
    expect(good.stdout).not.toMatch(/\u001b\[/);
    expect(good.stderr).toBe('');
    expect(coloured.stdout).toMatch(/\u001b\[1m/);
    expect(missing.code).toBe(4);
    // After a usage error and a not-found, a plain run exits 0 with nothing left over.
    const after = await runCliInProcess(['balance', '--json'], { env });
    expect(after.code).toBe(0);
    expect(after.stderr).toBe('');
    expect(JSON.parse(after.stdout).trx).toBeTypeOf('number');
    const usage = await runCliInProcess(['prices', '--json', '--duration'], { env });
    expect(usage.code).toBe(2);
    expect(errorLine(usage).message).toMatch(/--duration/);
    expect(errorLine(usage).message).not.toMatch(/frob/);
  });

  it('stdout and stdin as terminals: tables by default, prompts ruled out by --yes', async () => {
    const env = { TRX_RENT_BASE_URL: mock.url, TRX_RENT_API_KEY: mock.apiKey };
    const r = await runCliInProcess(['balance'], { env, isTTY: true, columns: 120 });
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/TRX available/);
    const yes = await runCliInProcess(['buy', '65000', '--yes'], { env, isTTY: true });
    expect(yes.code).toBe(2);
    expect(yes.stderr).toMatch(/missing --to ADDRESS, --duration/);
  });
});

describe('colour', () => {
  const env = () => ({ TRX_RENT_BASE_URL: mock.url, TRX_RENT_API_KEY: mock.apiKey });
  it('none off a terminal; FORCE_COLOR / CLICOLOR_FORCE turn it on; NO_COLOR and --no-color win', async () => {
    const plain = await runCliInProcess(['balance', '--no-json'], { env: env() });
    expect(plain.stdout).not.toMatch(/\u001b\[/);
    const forced = await runCliInProcess(['balance', '--no-json'], { env: { ...env(), FORCE_COLOR: '1' } });
    expect(forced.stdout).toMatch(/\u001b\[1m/);
    const clicolor = await runCliInProcess(['balance', '--no-json'], { env: { ...env(), CLICOLOR_FORCE: '1' } });
    expect(clicolor.stdout).toMatch(/\u001b\[/);
    const noColor = await runCliInProcess(['balance', '--no-json'], { env: { ...env(), FORCE_COLOR: '1', NO_COLOR: '1' } });
    expect(noColor.stdout).not.toMatch(/\u001b\[/);
    const flag = await runCliInProcess(['balance', '--no-json', '--no-color'], { env: { ...env(), FORCE_COLOR: '1' } });
    expect(flag.stdout).not.toMatch(/\u001b\[/);
    const json = await runCliInProcess(['balance', '--json'], { env: { ...env(), FORCE_COLOR: '1' } });
    expect(() => JSON.parse(json.stdout)).not.toThrow();
  });
});

describe('completion', () => {
  it('bash: valid syntax, and completes commands, subcommands, options and values', async () => {
    const r = await runCli(['completion', 'bash']);
    expect(r.code).toBe(0);
    const dir = tempDir();
    const script = join(dir, 'trx-rent.bash');
    writeFileSync(script, r.stdout);
    execFileSync('bash', ['-n', script]);
    const complete = (words: string[]) =>
      execFileSync(
        'bash',
        [
          '-c',
          `source ${JSON.stringify(script)}; COMP_WORDS=(${words.map((w) => JSON.stringify(w)).join(' ')}); COMP_CWORD=${words.length - 1}; _trx_rent; printf '%s\\n' "\${COMPREPLY[@]}"`,
        ],
        { encoding: 'utf8' },
      )
        .split('\n')
        .filter(Boolean);
    expect(complete(['trx-rent', 'or'])).toEqual(['orders']);
    expect(complete(['trx-rent', 'orders', ''])).toEqual(expect.arrayContaining(['list', 'get', 'wait', '--json']));
    expect(complete(['trx-rent', '--base-url', 'http://x', 'orders', 'list', '--st'])).toEqual(['--status']);
    expect(complete(['trx-rent', 'buy', '65000', '--type', ''])).toEqual(['MARKET', 'LIMIT', 'PERIODIC', 'BROADCAST']);
    expect(complete(['trx-rent', 'history', '--period', '3'])).toEqual(['30D']);
    expect(complete(['trx-rent', 'prices', 'b'])).toEqual(['bandwidth']);
    expect(complete(['trx-rent', 'webhooks', 'listen', '--for'])).toEqual(['--forward-to']);
  });

  it('zsh and fish scripts cover the same tree', async () => {
    const zsh = await runCliInProcess(['completion', 'zsh']);
    expect(zsh.code).toBe(0);
    expect(zsh.stdout.startsWith('#compdef trx-rent')).toBe(true);
    expect(zsh.stdout).toContain('\'orders\') [[ " list get wait "');
    if (spawnSync('zsh', ['--version']).status === 0) {
      const file = join(tempDir(), '_trx-rent');
      writeFileSync(file, zsh.stdout);
      execFileSync('zsh', ['-n', file]);
    }
    const fish = await runCliInProcess(['completion', 'fish']);
    expect(fish.code).toBe(0);
    expect(fish.stdout).toContain("complete -c trx-rent -n 'not __fish_seen_subcommand_from");
    expect(fish.stdout).toMatch(/-a 'withdraw' -d 'Withdraw TRX or USDT/);
    expect(fish.stdout).toMatch(/-l currency -x -a 'TRX USDT'/);
    if (spawnSync('fish', ['--version']).status === 0) {
      const file = join(tempDir(), 'trx-rent.fish');
      writeFileSync(file, fish.stdout);
      execFileSync('fish', ['-n', file]);
    }
  });
});
