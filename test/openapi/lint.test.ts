/**
 * The generated document passes Redocly's lint with the repository's redocly.yaml (what
 * `npm run lint:openapi` runs on dist/openapi.json), and generating it is deterministic.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { beforeAll, describe, expect, it } from 'vitest';
import { INSTALL_TIMEOUT_MS, toolBin } from '../../scripts/lib/tools.mjs';
import { buildOpenApiDocument } from '../../src/openapi/document.js';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
// Redocly is installed on demand from scripts/tools/redocly's lockfile (cached; see scripts/lib/tools.mjs).
let REDOCLY_BIN = '';
beforeAll(() => {
  REDOCLY_BIN = toolBin('redocly', 'redocly');
}, INSTALL_TIMEOUT_MS + 10_000);

describe('the generated OpenAPI document', () => {
  it('is the same on every build', () => {
    expect(JSON.stringify(buildOpenApiDocument({ version: '1.2.3' }))).toBe(JSON.stringify(buildOpenApiDocument({ version: '1.2.3' })));
  });

  it('passes redocly lint (recommended-strict and the extra rules of redocly.yaml)', () => {
    const dir = mkdtempSync(join(tmpdir(), 'trx-rent-openapi-lint-'));
    try {
      const file = join(dir, 'openapi.json');
      writeFileSync(file, JSON.stringify(buildOpenApiDocument({ version: '1.2.3' }), null, 2));
      const r = spawnSync(process.execPath, [REDOCLY_BIN, 'lint', '--config', join(ROOT, 'redocly.yaml'), '--format', 'json', file], {
        encoding: 'utf8',
        timeout: 60_000,
        env: { ...process.env, REDOCLY_TELEMETRY: 'off', NO_COLOR: '1' },
      });
      expect(r.error).toBeUndefined();
      expect(r.status, `${r.stdout}\n${r.stderr}`).toBe(0);
      const report = JSON.parse(r.stdout.slice(r.stdout.indexOf('{'))) as { totals: Record<string, number> };
      expect(report.totals).toEqual({ errors: 0, warnings: 0, ignored: 0 });
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }, 70_000);

  it('a broken document fails the same lint (the check is live)', () => {
    const dir = mkdtempSync(join(tmpdir(), 'trx-rent-openapi-lint-'));
    try {
      const doc = buildOpenApiDocument();
      // An operation with no 4xx response and an unused component.
      const op = doc.paths['/api/v1/balance']!.get!;
      op.responses = { default: (op.responses as Record<string, unknown>).default } as never;
      doc.components.schemas.Unused = { type: 'string' };
      const file = join(dir, 'openapi.json');
      writeFileSync(file, JSON.stringify(doc));
      const r = spawnSync(process.execPath, [REDOCLY_BIN, 'lint', '--config', join(ROOT, 'redocly.yaml'), file], {
        encoding: 'utf8',
        timeout: 60_000,
        env: { ...process.env, REDOCLY_TELEMETRY: 'off', NO_COLOR: '1' },
      });
      expect(r.status).not.toBe(0);
      expect(`${r.stdout}\n${r.stderr}`).toMatch(/operation-4xx-response/);
      expect(`${r.stdout}\n${r.stderr}`).toMatch(/no-unused-components/);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }, 70_000);
});
