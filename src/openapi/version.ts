/**
 * The package version, put in at build time (tsup's and vitest's `define` read package.json),
 * so `/openapi.json` and `trx-rent/openapi.json` name the release that generated them. A build
 * without the define (e.g. a bare esbuild of the sources) says '0.0.0'.
 *
 * @module
 */
declare const __TRX_RENT_VERSION__: string | undefined;

/** trx-rent's version (package.json's `version`). */
export const PACKAGE_VERSION: string = typeof __TRX_RENT_VERSION__ === 'string' ? __TRX_RENT_VERSION__ : '0.0.0';

/** The versions of the two specs the document follows: the account API's path version, the x402 API's interface version. */
export const SPEC_VERSIONS = { 'account-api': 'v1', 'x402-api': '2.0.0' } as const;
