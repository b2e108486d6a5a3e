/**
 * Every example a user reads is type-checked against the built package: the ```ts blocks of the
 * README, the mock's and x402's READMEs, and the TSDoc examples in src/ (which the API reference
 * shows), strictly; and the README's ```js programs (run with plain Node) as JavaScript, with
 * TypeScript's checks of JavaScript (a wrong method, option or argument fails; a possibly-unset
 * environment variable does not). A block is compiled as its own module; the few names a fragment
 * uses without declaring (`client`, `id`, `handle`…) come from one ambient prelude, so a block
 * cannot lean on another block. Resolution goes through the package's own exports
 * (self-reference), exactly as a user's `import 'trx-rent/mock'` does.
 */
import { spawnSync } from 'node:child_process';
import { mkdirSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const root = fileURLToPath(new URL('../..', import.meta.url));
const out = join(root, '.tmp', 'doc-snippets');

/** Markdown files whose examples users copy (the CLI README's block is a contributor's guide to internal modules). */
const MARKDOWN = ['README.md', 'src/mock/README.md', 'src/x402/README.md'];

const PRELUDE = `import type { TrxRent, Order } from 'trx-rent';
import type { X402Client } from 'trx-rent/x402';
declare global {
  const client: TrxRent;
  const x402: X402Client;
  const id: string;
  const to: string;
  const privateKey: string;
  function handle(order: Order): void;
}
export {};
`;

interface Snippet {
  file: string;
  line: number;
  code: string;
}

function markdownSnippets(file: string, lang = 'ts'): Snippet[] {
  const lines = readFileSync(join(root, file), 'utf8').split('\n');
  const found: Snippet[] = [];
  for (let i = 0; i < lines.length; i++) {
    if (lines[i]!.trim() !== `\`\`\`${lang}`) continue;
    const start = i + 1;
    const body: string[] = [];
    for (i++; i < lines.length && lines[i]!.trim() !== '```'; i++) body.push(lines[i]!);
    found.push({ file, line: start + 1, code: body.join('\n') });
  }
  return found;
}

function tsdocSnippets(file: string): Snippet[] {
  const lines = readFileSync(join(root, file), 'utf8').split('\n');
  const found: Snippet[] = [];
  for (let i = 0; i < lines.length; i++) {
    if (!/^\s*\*\s*```ts\s*$/.test(lines[i]!)) continue;
    const start = i + 1;
    const body: string[] = [];
    for (i++; i < lines.length && !/^\s*\*\s*```\s*$/.test(lines[i]!); i++) body.push(lines[i]!.replace(/^\s*\* ?/, ''));
    found.push({ file, line: start + 1, code: body.join('\n') });
  }
  return found;
}

function sourceFiles(dir: string): string[] {
  return readdirSync(join(root, dir), { withFileTypes: true }).flatMap((entry) => {
    const path = `${dir}/${entry.name}`;
    if (entry.isDirectory()) return sourceFiles(path);
    return entry.name.endsWith('.ts') ? [path] : [];
  });
}

/** Type-check `snippets` as files of `ext` in `dir` with `options`; the errors, each mapped to its block's file and line. */
function typeCheck(snippets: Snippet[], dir: string, ext: 'ts' | 'mjs', options: Record<string, unknown>): { report: string; status: number | null } {
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, 'prelude.d.ts'), PRELUDE);
  const names = snippets.map((s, i) => {
    const name = `${String(i).padStart(2, '0')}-${s.file.replace(/[/.]/g, '_')}-L${s.line}.${ext}`;
    // `export {}` makes each block a module: its names stay its own, top-level await is allowed.
    writeFileSync(join(dir, name), `${s.code}\nexport {};\n`);
    return name;
  });
  writeFileSync(
    join(dir, 'tsconfig.json'),
    JSON.stringify({
      compilerOptions: {
        target: 'es2022',
        module: 'esnext',
        moduleResolution: 'bundler',
        noEmit: true,
        skipLibCheck: true,
        types: ['node'],
        lib: ['es2022', 'dom'],
        allowUnreachableCode: true,
        ...options,
      },
      files: ['prelude.d.ts', ...names],
    }),
  );
  const tsc = spawnSync(process.execPath, [join(root, 'node_modules/typescript/bin/tsc'), '-p', join(dir, 'tsconfig.json')], { encoding: 'utf8' });
  const report = tsc.stdout.replace(/^\S*?(\d\d)-[^(/]+\.m?[jt]s\((\d+),\d+\)/gm, (_, index: string, line: string) => {
    const s = snippets[Number(index)]!;
    return `${s.file}:${s.line + Number(line) - 1}`;
  });
  return { report, status: tsc.status };
}

describe('documentation examples', () => {
  it('every ```ts block of the READMEs and the TSDoc type-checks against the built package', () => {
    const snippets = [...MARKDOWN.flatMap((f) => markdownSnippets(f)), ...sourceFiles('src').flatMap(tsdocSnippets)];
    // The READMEs hold 5 blocks and the public TSDoc 6: a parser that finds none must not pass.
    expect(snippets.length).toBeGreaterThanOrEqual(11);
    const { report, status } = typeCheck(snippets, join(out, 'ts'), 'ts', { strict: true });
    expect(report, `type errors in documentation examples (under ${relative(root, out)}):\n${report}`).toBe('');
    expect(status).toBe(0);
  }, 120_000);

  it("the README's ```js programs type-check as JavaScript against the built package", () => {
    const snippets = markdownSnippets('README.md', 'js');
    expect(snippets.length).toBeGreaterThanOrEqual(6);
    const { report, status } = typeCheck(snippets, join(out, 'js'), 'mjs', { allowJs: true, checkJs: true, strict: false });
    expect(report, `type errors in the README's JavaScript (under ${relative(root, out)}):\n${report}`).toBe('');
    expect(status).toBe(0);
  }, 120_000);

  it('the JavaScript check can fail: a misspelt method', () => {
    const wrong = {
      file: 'README.md',
      line: 1,
      code: "import { TrxRent } from 'trx-rent';\nawait new TrxRent({}).orders.previw({ resource: 'ENERGY', amount: 65000, duration: 3600 });",
    };
    const { report } = typeCheck([wrong], join(out, 'js-wrong'), 'mjs', { allowJs: true, checkJs: true, strict: false });
    expect(report).toMatch(/README\.md:2.*previw/);
  }, 120_000);
});
