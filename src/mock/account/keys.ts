import type { ACCOUNT_ENDPOINTS } from '../../api/account-docs.js';
import { MockApiError } from '../shared/errors.js';
import type { PlainHandlers } from '../http/table.js';

type Keys = Pick<typeof ACCOUNT_ENDPOINTS, 'createKey' | 'revokeKey'>;

export const keyHandlers = {
  createKey: {
    // Any authenticated caller; a key can only grant permissions it holds itself (a JWT
    // session can grant all), so a narrow key cannot mint a wider one.
    handle: ({ state, input: { body: input }, auth, account }) => {
      const missing = input.permissions.filter((p) => !auth!.permissions.has(p));
      if (missing.length) {
        throw new MockApiError('FORBIDDEN', `A key cannot grant permissions it does not hold: ${missing.join(', ')}`, { permissions: missing });
      }
      const key = state.accounts.createKey(account, input.name, input.permissions);
      return {
        status: 201,
        body: { id: key.id, name: key.name, key: key.secret, permissions: key.permissions, created_at: new Date(key.created_at).toISOString() },
      };
    },
  },
  revokeKey: {
    handle: ({ state, input: { params }, account }) => {
      if (!state.accounts.revokeKey(account, params.id)) {
        throw new MockApiError('NOT_FOUND', `API key ${params.id} does not exist or is already revoked`, { field: 'id' });
      }
      return { status: 200, body: { revoked: true } };
    },
  },
} satisfies PlainHandlers<Keys>;
