/**
 * The package version, read from package.json when the bundle is built (esbuild inlines the one
 * field), so `/openapi.json` and `trx-rent/openapi.json` name the release that generated them.
 *
 * @module
 */
import { version } from '../../package.json';

/** trx-rent's version (package.json's `version`). */
export const PACKAGE_VERSION: string = version;

/** The versions of the two specs the document follows: the account API's path version, the x402 API's interface version. */
export const SPEC_VERSIONS = { 'account-api': 'v1', 'x402-api': '2.0.0' } as const;
