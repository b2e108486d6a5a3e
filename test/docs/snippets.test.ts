/**
 * Every TypeScript example a user reads is type-checked against the built package: the ```ts
 * blocks of the README, the mock's and x402's READMEs, and the TSDoc examples in src/ (which the
 * API reference shows). A block is compiled as its own module; the few names a fragment uses
 * without declaring (`client`, `id`, `handle`…) come from one ambient prelude, so a block cannot
 * lean on another block. Resolution goes through the package's own exports (self-reference),
 * exactly as a user's `import 'trx-rent/mock'` does.
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

interface Snippet { file: string; line: number; code: string }

function markdownSnippets(file: string): Snippet[] {
  const lines = readFileSync(join(root, file), 'utf8').split('\n');
  const found: Snippet[] = [];
  for (let i = 0; i < lines.length; i++) {
    if (lines[i]!.trim() !== '```ts') continue;
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

describe('documentation examples', () => {
  it('every ```ts block of the READMEs and the TSDoc type-checks against the built package', () => {
    const snippets = [...MARKDOWN.flatMap(markdownSnippets), ...sourceFiles('src').flatMap(tsdocSnippets)];
    // The READMEs hold 7 blocks and the public TSDoc 6: a parser that finds none must not pass.
    expect(snippets.length).toBeGreaterThanOrEqual(13);

    rmSync(out, { recursive: true, force: true });
    mkdirSync(out, { recursive: true });
    writeFileSync(join(out, 'prelude.d.ts'), PRELUDE);
    const names = snippets.map((s, i) => {
      const name = `${String(i).padStart(2, '0')}-${s.file.replace(/[/.]/g, '_')}-L${s.line}.ts`;
      // `export {}` makes each block a module: its names stay its own, top-level await is allowed.
      writeFileSync(join(out, name), `${s.code}\nexport {};\n`);
      return name;
    });
    writeFileSync(
      join(out, 'tsconfig.json'),
      JSON.stringify({
        compilerOptions: {
          target: 'es2022', module: 'esnext', moduleResolution: 'bundler', strict: true, noEmit: true,
          skipLibCheck: true, types: ['node'], lib: ['es2022', 'dom'], allowUnreachableCode: true,
        },
        files: ['prelude.d.ts', ...names],
      }),
    );
    const tsc = spawnSync(process.execPath, [join(root, 'node_modules/typescript/bin/tsc'), '-p', join(out, 'tsconfig.json')], { encoding: 'utf8' });
    // Map each error back to the block's source file and line.
    const report = tsc.stdout.replace(/^\S*?(\d\d)-[^(/]+\.ts\((\d+),\d+\)/gm, (_, index: string, line: string) => {
      const s = snippets[Number(index)]!;
      return `${s.file}:${s.line + Number(line) - 1}`;
    });
    expect(report, `type errors in documentation examples (under ${relative(root, out)}):\n${report}`).toBe('');
    expect(tsc.status).toBe(0);
  }, 120_000);
});
