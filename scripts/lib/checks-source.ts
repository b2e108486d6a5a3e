// What scripts/checks.mjs compiles, in one bundle so the predicates are the very functions the
// schemas' refinements hold (the compiler matches them by identity).
export { ACCOUNT_WIRE } from '../../src/api/account.js';
export { isTronAddress } from '../../src/utils/address.js';
export { energyAmountIsEnough, limitOrderHasPrice } from '../../src/schemas/orders.js';
export { previewAmountIsEnough } from '../../src/schemas/prices.js';

/** The refinement functions a generated check may call, and where the generated file imports them from. */
export const PREDICATE_IMPORTS = {
  isTronAddress: '../utils/address.js',
  energyAmountIsEnough: '../schemas/orders.js',
  limitOrderHasPrice: '../schemas/orders.js',
  previewAmountIsEnough: '../schemas/prices.js',
} as const;
