/**
 * The README's first block, the set-up, as a new user runs it, each line alone:
 * - `npx trx-rent demo` in a fresh folder of this clone (always);
 * - `npm install` in a fresh `git clone` of this repository (HEAD), then `npx trx-rent demo`
 *   there: npm offline (the lockfile's packages come from npm's cache; tests reach only
 *   127.0.0.1), and only with TRX_RENT_TEST_CLONE=1, which `.ci/run` sets: a clone's install and
 *   build take minutes, too long for every `npm test`;
 * - `npm test` is the suite this file belongs to: `.ci/run` runs it after `npm ci` in a clean
 *   checkout, which the last test holds it to.
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { bash, block, commands, freshFolder, root, shellEnv } from './readme-blocks.js';

const setup = () => commands(block('npx trx-rent demo'));
/** The demo's result, as printed when its output is not a terminal: the verified webhook and the USDT send, confirmed. */
function demoDone(stdout: string): void {
  const result = JSON.parse(stdout) as { webhook: { verified: boolean }; transfer: { confirmed: string; saving_sun: number } };
  expect(result.webhook.verified).toBe(true);
  expect(result.transfer).toMatchObject({ confirmed: 'included', saving_sun: expect.any(Number) });
}

describe("the README's set-up block", () => {
  it('is npm install, npx trx-rent demo, npm test, and is the first block of the README', () => {
    expect(setup()).toEqual(['npm install', 'npx trx-rent demo', 'npm test']);
    expect(readFileSync(join(root, 'README.md'), 'utf8').indexOf('```')).toBe(readFileSync(join(root, 'README.md'), 'utf8').indexOf('```sh\nnpm install'));
  });

  it('npx trx-rent demo, alone in a fresh folder of the clone', async () => {
    const dir = freshFolder('demo');
    const r = await bash(setup()[1]!, { cwd: dir, env: shellEnv(dir), timeout: 180_000 });
    expect(r.status, `${r.stdout}\n${r.stderr}`).toBe(0);
    demoDone(r.stdout);
  }, 200_000);

  it.runIf(process.env.TRX_RENT_TEST_CLONE === '1')(
    'npm install in a fresh git clone, then npx trx-rent demo there',
    async () => {
      const base = mkdtempSync(join(tmpdir(), 'trx-rent-clone-'));
      const clone = join(base, 'trx-rent');
      try {
        const env = shellEnv(clone);
        const cloned = await bash(`git clone --quiet ${JSON.stringify(root)} ${JSON.stringify(clone)}`, { cwd: root, env, timeout: 120_000 });
        expect(cloned.status, cloned.stderr).toBe(0);
        const [install, demo] = setup();
        const installed = await bash(install!, { cwd: clone, env, timeout: 1_500_000 });
        expect(installed.status, `${installed.stdout}\n${installed.stderr}`).toBe(0);
        const r = await bash(demo!, { cwd: clone, env, timeout: 180_000 });
        expect(r.status, `${r.stdout}\n${r.stderr}`).toBe(0);
        demoDone(r.stdout);
      } finally {
        rmSync(base, { recursive: true, force: true }); // a clone with its node_modules: a quarter of a gigabyte
      }
    },
    1_800_000,
  );

  it('npm test is what .ci/run runs after npm ci in a clean checkout, with the clone test on', () => {
    const ci = readFileSync(join(root, '.ci', 'run'), 'utf8');
    const at = (s: RegExp) => ci.search(s);
    expect(at(/^npm ci$/m)).toBeGreaterThan(-1);
    expect(at(/^export TRX_RENT_TEST_CLONE=1$/m)).toBeGreaterThan(at(/^npm ci$/m));
    expect(at(/^npm test\b/m)).toBeGreaterThan(at(/^export TRX_RENT_TEST_CLONE=1$/m));
  });
});
