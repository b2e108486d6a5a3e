/**
 * api.md, the method index, is generated from the endpoint table (`npm run api-md`): rendered
 * again here from the sources, it must equal the committed file, so a table change without
 * regenerating fails. The CLI commands and MCP tools it names must exist.
 */
import { readFileSync } from 'node:fs';
import { Command } from 'commander';
import { describe, expect, it } from 'vitest';
import { ENDPOINT_LIST } from '../../src/api/endpoints.js';
import { REGISTRY } from '../../src/cli/registry.js';
import { TOOLS } from '../../src/mcp/tools/index.js';
// @ts-expect-error: a plain ESM script without types
import { renderApiMd } from '../../scripts/api-md.mjs';

const render = renderApiMd as (entries: typeof ENDPOINT_LIST) => string;

describe('api.md', () => {
  it('is what the endpoint table generates (run `npm run api-md` after changing the table)', () => {
    const file = readFileSync(new URL('../../api.md', import.meta.url), 'utf8');
    expect(file).toBe(render(ENDPOINT_LIST));
  });

  it('has one line per operation, and the check is live (a changed entry changes it)', () => {
    const text = render(ENDPOINT_LIST);
    for (const e of ENDPOINT_LIST)
      expect(
        text.split('\n').filter((l) => l.includes(`\`${e.method} ${e.path}\``)),
        e.id,
      ).toHaveLength(1);
    const changed = ENDPOINT_LIST.map((e) => (e.id === 'createOrder' ? { ...e, summary: 'something else' } : e));
    expect(render(changed)).not.toBe(text);
  });

  it('every CLI command and MCP tool the table names exists', async () => {
    const tools = new Set(TOOLS.map((t) => t.name));
    for (const e of ENDPOINT_LIST) {
      if (e.mcp) expect(tools.has(e.mcp.tool), `${e.id}: MCP tool ${e.mcp.tool}`).toBe(true);
      if (!e.cli) continue;
      const [name, sub] = e.cli.split(' ');
      const entry = REGISTRY.find((r) => r.name === name);
      expect(entry, `${e.id}: CLI command ${e.cli}`).toBeDefined();
      if (!sub) continue;
      const cmd = new Command(name);
      (await entry!.load()).default.register?.(cmd, { loadAll: async () => new Command() });
      expect(
        cmd.commands.map((c) => c.name()),
        `${e.id}: CLI command ${e.cli}`,
      ).toContain(sub);
    }
  });
});
