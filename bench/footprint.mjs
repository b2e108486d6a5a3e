// Footprint: core bundle sizes (measured now: esbuild minify + gzip -9 of the built dist/) and the
// install size of the packed tarball in a fresh project (read from bench/results/footprint.json,
// which `npm run test:package` writes; installing is too slow for a bench run).
import { existsSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { coreBundleSizes } from '../scripts/lib/footprint.mjs';

const root = fileURLToPath(new URL('..', import.meta.url));
const saved = new URL('./results/footprint.json', import.meta.url);
const MB = 1_000_000;
// Issue 12's goals, as scripts/size.mjs enforces them in CI.
const INSTALL_GOAL = 13 * MB;
const PACKAGES_GOAL = 40;
const WEBHOOKS_GOAL = 2048;

export async function run() {
  const rows = [];
  const bundles = await coreBundleSizes(root);
  for (const [name, s] of Object.entries(bundles)) {
    const webhooks = name === 'trx-rent/webhooks';
    rows.push({
      name: `${name}: minified + gzip`,
      value: s.gzip,
      unit: 'B',
      ...(webhooks ? { target: '< 2 KB, no deps', ok: s.gzip <= WEBHOOKS_GOAL && s.imports.length === 0 } : {}),
    });
    rows.push({ name: `${name}: minified`, value: s.minified, unit: 'B' });
  }

  let from = 'not measured: run `npm run test:package`';
  if (existsSync(saved)) {
    const fp = JSON.parse(readFileSync(saved, 'utf8'));
    from = `from test:package, ${fp.date}, Node ${fp.node}`;
    if (fp.tarball) rows.push({ name: 'tarball (packed)', value: fp.tarball.bytes / 1000, unit: 'kB' });
    if (fp.install) {
      rows.push({
        name: 'production install, tarball alone',
        value: fp.install.bytes / MB,
        unit: 'MB',
        target: '< 13 MB',
        ok: fp.install.bytes < INSTALL_GOAL,
      });
      rows.push({ name: 'packages, tarball alone', value: fp.install.packages, unit: 'packages', target: '< 40', ok: fp.install.packages < PACKAGES_GOAL });
    }
    if (fp.installWithExtras) {
      rows.push({ name: 'production install, with payment extras', value: fp.installWithExtras.bytes / MB, unit: 'MB' });
      rows.push({ name: 'packages, with payment extras', value: fp.installWithExtras.packages, unit: 'packages' });
    }
  }
  return { title: `Footprint (bundles measured now; install ${from})`, rows };
}
