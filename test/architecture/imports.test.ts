/**
 * The architecture's import rules, checked on the source: which folder may import which, where
 * msw may appear, and no import cycles. Imports are read with TypeScript's own pre-processor
 * (static, re-exports, dynamic `import()`, type-only included), so what is checked is what the
 * compiler sees, not a regex's guess.
 */
import { readFileSync, readdirSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const SRC = join(ROOT, 'src');

interface SourceFile {
  /** Path from the repository root, e.g. `src/mock/server.ts`. */
  path: string;
  /** Resolved project files this file imports. */
  local: string[];
  /** Package specifiers (`msw`, `zod`, `@x402/core/client`). */
  packages: string[];
  /** Project files imported by code that stays in the output (not `import type`). */
  runtime: string[];
}

interface ImportRef {
  specifier: string;
  /** `import type` / `export type` / every named binding marked `type`: erased from the output. */
  typeOnly: boolean;
}

/** Every import of a file, from TypeScript's own parse: static, re-export and dynamic `import()`. */
function importsOf(fileName: string, text: string): ImportRef[] {
  const source = ts.createSourceFile(fileName, text, ts.ScriptTarget.Latest, false, ts.ScriptKind.TS);
  const refs: ImportRef[] = [];
  const visit = (node: ts.Node): void => {
    if (ts.isImportDeclaration(node) && ts.isStringLiteral(node.moduleSpecifier)) {
      const clause = node.importClause;
      const named = clause?.namedBindings && ts.isNamedImports(clause.namedBindings) ? clause.namedBindings.elements : undefined;
      const typeOnly = Boolean(clause && (clause.isTypeOnly || (!clause.name && named && named.length > 0 && named.every((e) => e.isTypeOnly))));
      refs.push({ specifier: node.moduleSpecifier.text, typeOnly });
    } else if (ts.isExportDeclaration(node) && node.moduleSpecifier && ts.isStringLiteral(node.moduleSpecifier)) {
      const named = node.exportClause && ts.isNamedExports(node.exportClause) ? node.exportClause.elements : undefined;
      refs.push({ specifier: node.moduleSpecifier.text, typeOnly: node.isTypeOnly || Boolean(named && named.length > 0 && named.every((e) => e.isTypeOnly)) });
    } else if (ts.isCallExpression(node) && node.expression.kind === ts.SyntaxKind.ImportKeyword) {
      const [arg] = node.arguments;
      if (arg && ts.isStringLiteralLike(arg)) refs.push({ specifier: arg.text, typeOnly: false });
    } else if (ts.isImportTypeNode(node) && ts.isLiteralTypeNode(node.argument) && ts.isStringLiteral(node.argument.literal)) {
      refs.push({ specifier: node.argument.literal.text, typeOnly: true });
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return refs;
}

function walk(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const full = join(dir, name);
    if (statSync(full).isDirectory()) return walk(full);
    return /\.ts$/.test(name) && !/\.d\.ts$/.test(name) ? [full] : [];
  });
}

function resolveLocal(from: string, specifier: string): string | undefined {
  const base = resolve(dirname(from), specifier.replace(/\.(m?js|cjs)$/, ''));
  for (const candidate of [`${base}.ts`, join(base, 'index.ts')]) {
    try {
      if (statSync(candidate).isFile()) return relative(ROOT, candidate).split('\\').join('/');
    } catch {
      // not this one
    }
  }
  return undefined;
}

function readGraph(): Map<string, SourceFile> {
  const graph = new Map<string, SourceFile>();
  for (const file of walk(SRC)) {
    const path = relative(ROOT, file).split('\\').join('/');
    const local: string[] = [];
    const runtime: string[] = [];
    const packages: string[] = [];
    for (const { specifier, typeOnly } of importsOf(file, readFileSync(file, 'utf8'))) {
      if (specifier.startsWith('.')) {
        const target = resolveLocal(file, specifier);
        if (!target) throw new Error(`${path}: cannot resolve ${specifier}`);
        local.push(target);
        if (!typeOnly) runtime.push(target);
      } else if (!specifier.startsWith('node:') && !typeOnly) packages.push(specifier);
    }
    graph.set(path, { path, local, packages, runtime });
  }
  return graph;
}

/** Strongly connected components with more than one file (or a file importing itself): the cycles. */
function cycles(graph: Map<string, SourceFile>): string[][] {
  let index = 0;
  const stack: string[] = [];
  const onStack = new Set<string>();
  const order = new Map<string, number>();
  const low = new Map<string, number>();
  const found: string[][] = [];
  const visit = (v: string): void => {
    order.set(v, index);
    low.set(v, index++);
    stack.push(v);
    onStack.add(v);
    for (const w of graph.get(v)?.local ?? []) {
      if (!order.has(w)) {
        visit(w);
        low.set(v, Math.min(low.get(v)!, low.get(w)!));
      } else if (onStack.has(w)) low.set(v, Math.min(low.get(v)!, order.get(w)!));
    }
    if (low.get(v) === order.get(v)) {
      const component: string[] = [];
      let w: string;
      do {
        w = stack.pop()!;
        onStack.delete(w);
        component.push(w);
      } while (w !== v);
      if (component.length > 1 || graph.get(v)?.local.includes(v)) found.push(component.sort());
    }
  };
  for (const v of graph.keys()) if (!order.has(v)) visit(v);
  return found;
}

const graph = readGraph();
const files = [...graph.values()];
const folder = (path: string) => path.split('/')[1] ?? '';

/** Every import of a project file in `from` that lands in one of the `banned` folders. */
function crossings(from: (f: SourceFile) => boolean, banned: string[]): string[] {
  return files.filter(from).flatMap((f) => f.local.filter((t) => banned.includes(folder(t))).map((t) => `${f.path} -> ${t}`));
}

describe('import rules', () => {
  it('reads the whole source tree', () => {
    expect(files.length).toBeGreaterThan(100);
    expect(graph.get('src/index.ts')?.local.length).toBeGreaterThan(3);
  });

  it('has no import cycle anywhere under src/', () => {
    expect(cycles(graph)).toEqual([]);
  });

  it('has no cycle between folders of src/ either (a folder is a room: its imports go one way)', () => {
    const folders = new Map<string, SourceFile>();
    for (const f of files) {
      const from = folder(f.path);
      const node = folders.get(from) ?? { path: from, local: [], packages: [], runtime: [] };
      for (const t of f.local) if (folder(t) !== from && !node.local.includes(folder(t))) node.local.push(folder(t));
      folders.set(from, node);
    }
    expect(cycles(folders)).toEqual([]);
  });

  it('finds a cycle when there is one (the checker itself works)', () => {
    const fake = new Map<string, SourceFile>([
      ['a', { path: 'a', local: ['b'], packages: [], runtime: [] }],
      ['b', { path: 'b', local: ['c'], packages: [], runtime: [] }],
      ['c', { path: 'c', local: ['a'], packages: [], runtime: [] }],
      ['d', { path: 'd', local: ['a'], packages: [], runtime: [] }],
    ]);
    expect(cycles(fake)).toEqual([['a', 'b', 'c']]);
  });

  it('the mock imports neither the account client (src/http) nor the x402 client (src/x402)', () => {
    expect(crossings((f) => f.path.startsWith('src/mock/'), ['http', 'x402', 'resources', 'cli'])).toEqual([]);
  });

  it('only the msw adapter of the mock imports msw', () => {
    const importers = files.filter((f) => f.path.startsWith('src/mock/') && f.packages.some((p) => p === 'msw' || p.startsWith('msw/')));
    expect(importers.length).toBeLessThanOrEqual(1);
    for (const f of importers) expect(f.path).toMatch(/msw/);
    // and nothing outside the mock imports msw at all
    expect(files.filter((f) => !f.path.startsWith('src/mock/') && f.packages.some((p) => p === 'msw' || p.startsWith('msw/'))).map((f) => f.path)).toEqual([]);
  });

  it('protocol facts stay below both sides: src/protocol imports no client, mock or CLI code', () => {
    expect(crossings((f) => folder(f.path) === 'protocol', ['http', 'x402', 'mock', 'cli', 'resources'])).toEqual([]);
  });

  it('the layers below the clients import nothing above them', () => {
    // schemas, utils, errors, protocol, peers: shared by every side, so they import no side.
    const shared = ['schemas', 'utils', 'errors', 'protocol', 'peers'];
    expect(crossings((f) => shared.includes(folder(f.path)), ['http', 'x402', 'mock', 'cli', 'resources'])).toEqual([]);
    // The account client knows nothing of payments, the mock or the CLI.
    expect(crossings((f) => ['http', 'resources'].includes(folder(f.path)), ['x402', 'mock', 'cli'])).toEqual([]);
    // The x402 client uses the request core, never the mock or the CLI.
    expect(crossings((f) => folder(f.path) === 'x402', ['mock', 'cli'])).toEqual([]);
  });

  it('the webhook verifier is self-contained at run time (edge-safe: no package, only types from schemas)', () => {
    const verifier = files.filter((f) => folder(f.path) === 'webhooks');
    expect(verifier.length).toBeGreaterThan(0);
    for (const f of verifier) {
      expect(f.packages).toEqual([]);
      expect(f.runtime.filter((t) => folder(t) !== 'webhooks')).toEqual([]);
    }
  });

  it('src/tron (transfers) uses the request core and resources, never the mock, CLI, MCP or x402; the core loads its engine lazily', () => {
    expect(crossings((f) => folder(f.path) === 'tron', ['mock', 'cli', 'mcp', 'x402'])).toEqual([]);
    // The handles in the core reach the engine and the node client through import() only.
    const text = readFileSync(join(ROOT, 'src/tron/facade.ts'), 'utf8');
    const statics = importsOf('src/tron/facade.ts', text.replace(/import\(\s*(['"])[^'"]+\1\s*\)/g, 'undefined')).filter((r) => !r.typeOnly);
    expect(statics.map((r) => r.specifier).filter((sp) => sp.startsWith('./'))).toEqual([]);
    expect(text).toMatch(/import\('\.\/engine\.js'\)/);
  });

  it('src/workflows (long-running jobs) use the SDK and the transfer engine, never the mock, CLI or MCP; time only from a Clock', () => {
    expect(crossings((f) => folder(f.path) === 'workflows', ['mock', 'cli', 'mcp'])).toEqual([]);
    // Nothing below the workflows reaches up into them.
    const below = ['schemas', 'utils', 'errors', 'protocol', 'peers', 'http', 'resources', 'api', 'tron', 'x402', 'mock', 'openapi', 'internal'];
    expect(crossings((f) => below.includes(folder(f.path)), ['workflows'])).toEqual([]);
    const clockless = files
      .filter((f) => folder(f.path) === 'workflows')
      .filter((f) =>
        /\bDate\.now\(|\bsetTimeout\(|\bsetInterval\(/.test(
          readFileSync(join(ROOT, f.path), 'utf8')
            .replace(/\/\*[\s\S]*?\*\//g, '')
            .replace(/\/\/.*$/gm, ''),
        ),
      );
    expect(clockless.map((f) => f.path)).toEqual([]);
  });

  it('every optional peer (viem, tronweb, @x402/*, the MCP SDK) is loaded through src/peers, the one loader with the install-command error', () => {
    const PEER = /^(viem|tronweb|@x402\/|@modelcontextprotocol\/|@aws-sdk\/)/;
    const outside = files
      .filter((f) => !f.path.startsWith('src/peers/'))
      .flatMap((f) => f.packages.filter((p) => PEER.test(p)).map((p) => `${f.path} -> ${p}`));
    expect(outside).toEqual([]);
  });

  it('the CLI takes facts from zod-free modules: its help path reaches no zod', () => {
    // Files the CLI entry reaches by static imports only (commands load lazily by import()).
    const seen = new Set<string>();
    const statics = (path: string): void => {
      if (seen.has(path)) return;
      seen.add(path);
      const text = readFileSync(join(ROOT, path), 'utf8');
      // import() calls are the lazy edges; keep only static, value imports.
      const statics_ = importsOf(path, text.replace(/import\(\s*(['"])[^'"]+\1\s*\)/g, 'undefined')).filter((r) => !r.typeOnly);
      for (const { specifier } of statics_) {
        if (specifier === 'zod' || specifier.startsWith('zod/')) throw new Error(`${path} statically imports ${specifier}`);
        if (specifier.startsWith('.')) {
          const target = resolveLocal(join(ROOT, path), specifier);
          if (target) statics(target);
        }
      }
    };
    expect(() => statics('src/cli/index.ts')).not.toThrow();
    expect(seen.size).toBeGreaterThan(1);
  });
});

describe('what derives from the endpoint table (src/api)', () => {
  it('src/api imports only the schemas, the errors (a bad path segment) and the address check its generated fast checks call', () => {
    const api = files.filter((f) => folder(f.path) === 'api');
    expect(api.length).toBeGreaterThan(3);
    const allowed = ['src/utils/address.ts'];
    for (const f of api)
      expect(
        f.local.filter((t) => !['api', 'schemas', 'errors'].includes(folder(t)) && !allowed.includes(t)),
        f.path,
      ).toEqual([]);
  });

  it('src/openapi is generated from the table: it imports only src/api, src/schemas and the protocol header names', () => {
    const openapi = files.filter((f) => folder(f.path) === 'openapi');
    expect(openapi.length).toBeGreaterThan(0);
    for (const f of openapi)
      expect(
        f.local.filter((t) => !['openapi', 'api', 'schemas'].includes(folder(t)) && t !== 'src/protocol/codec.ts'),
        f.path,
      ).toEqual([]);
    expect(graph.get('src/openapi/document.ts')?.local).toContain('src/api/endpoints.ts');
  });

  it('the MCP read tools come from the table (src/mcp/tools/read.ts), as does the CLI api command', async () => {
    expect(graph.get('src/mcp/tools/read.ts')?.local).toContain('src/api/endpoints.ts');
    expect(graph.get('src/cli/commands/api.ts')?.local).toContain('src/api/endpoints.ts');
    const { ENDPOINT_LIST } = await import('../../src/api/endpoints.js');
    const { TOOLS } = await import('../../src/mcp/tools/index.js');
    const { READ_TOOLS } = await import('../../src/mcp/tools/read.js');
    // A tool named by an unpaid GET of the table is the generated one, never a hand-written twin.
    for (const e of ENDPOINT_LIST.filter((x) => x.method === 'GET' && x.api === 'account' && x.mcp)) {
      const tool = TOOLS.find((t) => t.name === e.mcp!.tool);
      expect(tool && READ_TOOLS.includes(tool), `${e.id}: ${e.mcp!.tool}`).toBe(true);
    }
  });

  it('no x402 or MCP file imports a schema the table holds by name: they take it from the entry (src/x402/index.ts re-exports the schemas for users)', async () => {
    const { ENDPOINT_LIST } = await import('../../src/api/endpoints.js');
    const held = new Set<unknown>(ENDPOINT_LIST.flatMap((e) => [e.params, e.query, e.body, e.response]).filter(Boolean));
    const named: string[] = [];
    for (const f of files.filter((x) => (folder(x.path) === 'mcp' || folder(x.path) === 'x402') && x.path !== 'src/x402/index.ts')) {
      const source = ts.createSourceFile(f.path, readFileSync(join(ROOT, f.path), 'utf8'), ts.ScriptTarget.Latest, false, ts.ScriptKind.TS);
      for (const node of source.statements) {
        if (!ts.isImportDeclaration(node) || !ts.isStringLiteral(node.moduleSpecifier) || !/\/schemas\//.test(node.moduleSpecifier.text)) continue;
        const bindings = node.importClause?.namedBindings;
        if (!bindings || !ts.isNamedImports(bindings)) continue;
        const target = resolveLocal(join(ROOT, f.path), node.moduleSpecifier.text)!;
        const mod = (await import(join(ROOT, target))) as Record<string, unknown>;
        for (const el of bindings.elements) {
          const name = (el.propertyName ?? el.name).text;
          if (held.has(mod[name])) named.push(`${f.path}: ${name}`);
        }
      }
    }
    expect(held.size).toBeGreaterThan(40);
    expect(named).toEqual([]);
  });

  it('no path template of the table is written in src/openapi, src/mcp or the CLI api command (comments aside)', async () => {
    const { ENDPOINT_LIST } = await import('../../src/api/endpoints.js');
    const code = (path: string) =>
      readFileSync(join(ROOT, path), 'utf8')
        .replace(/\/\*[\s\S]*?\*\//g, '')
        .replace(/(^|[^:'"`])\/\/.*$/gm, '$1');
    const written: string[] = [];
    const derived = files.filter((x) => ['openapi', 'mcp'].includes(folder(x.path)) || x.path === 'src/cli/commands/api.ts');
    expect(derived.length).toBeGreaterThan(5);
    for (const f of derived) {
      const text = code(f.path);
      for (const e of ENDPOINT_LIST) {
        const at = new RegExp(`${e.path.replace(/[{}]/g, '\\$&')}(?![\\w/{])`);
        if (at.test(text)) written.push(`${f.path}: ${e.path}`);
      }
    }
    expect(written).toEqual([]);
    // The check is live: the table's own file is full of them.
    const table = code('src/api/account.ts');
    expect(ENDPOINT_LIST.filter((e) => e.api === 'account' && table.includes(`'${e.path}'`)).length).toBeGreaterThan(10);
  });
});

/**
 * The rooms inside `src/mock` (each folder, and each file at its root) and the rooms each may
 * import: the one statement of their direction, bottom first. `shared` and the control table
 * (with its chain routes' bodies, `chain-control-bodies.ts`) import no other room; the chain, the paid side's state (`x402`) and `MockState` (`state`) stand on
 * them; the pipeline and its route records (`http`) on the state; the handlers (`account`,
 * `x402-api`, `node-routes.ts`) on the pipeline's records; the handler maps and the whole table
 * on the handlers; the adapters that serve the table (`adapters`, `msw.ts`) and the entry
 * (`index.ts`) on top. Type-only and dynamic imports count as imports.
 */
const MOCK_ROOMS: Readonly<Record<string, readonly string[]>> = {
  shared: [],
  'chain-control-bodies.ts': [],
  'control-endpoints.ts': ['chain-control-bodies.ts'],
  chain: ['shared'],
  x402: ['chain', 'shared'],
  state: ['x402', 'chain', 'shared'],
  http: ['state', 'x402', 'shared'],
  account: ['http', 'state', 'control-endpoints.ts', 'shared'],
  'x402-api': ['http', 'x402', 'chain', 'control-endpoints.ts', 'shared'],
  'node-routes.ts': ['http', 'chain'],
  'handlers.ts': ['account', 'x402-api', 'http', 'control-endpoints.ts'],
  'routes.ts': ['handlers.ts', 'node-routes.ts', 'x402-api', 'http', 'control-endpoints.ts'],
  adapters: ['routes.ts', 'http', 'state', 'x402'],
  'msw.ts': ['adapters', 'routes.ts', 'http', 'state'],
  'index.ts': ['adapters', 'routes.ts', 'http', 'state', 'x402', 'chain', 'shared'],
};

/** The room of a file under `src/mock/`: its folder there, or the file itself at the root. */
const mockRoom = (path: string): string => path.split('/')[2] ?? '';

/** Every import from one room of the mock into another that `rooms` does not allow. */
function mockCrossings(sources: SourceFile[], rooms: Readonly<Record<string, readonly string[]>>): string[] {
  return sources
    .filter((f) => f.path.startsWith('src/mock/'))
    .flatMap((f) => {
      const from = mockRoom(f.path);
      return f.local.filter((t) => t.startsWith('src/mock/') && mockRoom(t) !== from && !rooms[from]?.includes(mockRoom(t))).map((t) => `${f.path} -> ${t}`);
    });
}

describe('the rooms inside src/mock (MOCK_ROOMS)', () => {
  const mockFiles = files.filter((f) => f.path.startsWith('src/mock/'));

  it('every folder and root file of src/mock is a room of the table, and every room of the table exists', () => {
    const present = [...new Set(mockFiles.map((f) => mockRoom(f.path)))].sort();
    expect(present).toEqual(Object.keys(MOCK_ROOMS).sort());
  });

  it('every import between rooms goes where the table allows', () => {
    expect(mockCrossings(mockFiles, MOCK_ROOMS)).toEqual([]);
  });

  it('the table goes one way (no room reaches itself through the rooms it may import)', () => {
    const table = new Map(Object.entries(MOCK_ROOMS).map(([room, may]) => [room, { path: room, local: [...may], packages: [], runtime: [] }]));
    expect(cycles(table)).toEqual([]);
  });

  it('every arrow of the table is an import that exists (the table is the map of the rooms, not a wish list)', () => {
    const taken = new Set(mockFiles.flatMap((f) => f.local.filter((t) => t.startsWith('src/mock/')).map((t) => `${mockRoom(f.path)} -> ${mockRoom(t)}`)));
    const unused = Object.entries(MOCK_ROOMS)
      .flatMap(([room, may]) => may.map((to) => `${room} -> ${to}`))
      .filter((arrow) => !taken.has(arrow));
    expect(unused).toEqual([]);
  });

  it('finds a back arrow when there is one (the checker itself works)', () => {
    const fake: SourceFile[] = [
      { path: 'src/mock/state/orders.ts', local: ['src/mock/http/errors.ts', 'src/mock/chain/chain.ts', 'src/mock/state/rng.ts'], packages: [], runtime: [] },
      { path: 'src/mock/chain/ledger.ts', local: ['src/mock/state/fifo.ts'], packages: [], runtime: [] },
    ];
    expect(mockCrossings(fake, MOCK_ROOMS)).toEqual([
      'src/mock/state/orders.ts -> src/mock/http/errors.ts',
      'src/mock/chain/ledger.ts -> src/mock/state/fifo.ts',
    ]);
  });
});
