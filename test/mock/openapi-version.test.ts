/** `/openapi.json` names the package version and the spec versions it follows. */
import { readFileSync } from 'node:fs';
import { expect, it } from 'vitest';
import { createFetchHandler, createMockState } from '../../src/mock/index.js';

it("info.version is package.json's; info.x-spec-versions names account API v1 and x402 2.0.0", async () => {
  const pkg = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as { version: string };
  const state = createMockState();
  try {
    const doc = (await (await createFetchHandler(state)('http://mock.test/openapi.json')).json()) as { info: Record<string, unknown> };
    expect(doc.info.version).toBe(pkg.version);
    expect(doc.info.version).not.toBe('0.0.0');
    expect(doc.info['x-spec-versions']).toEqual({ 'account-api': 'v1', 'x402-api': '2.0.0' });
    expect(doc.info.summary).toMatch(/x402 API spec 2\.0\.0/);
  } finally {
    state.dispose();
  }
});
