/** Webhooks: register an endpoint for order, deposit and withdrawal events, and delete one (listing them is a generated read tool, `./read.ts`). */
import * as z from 'zod';
import { ACCOUNT_WIRE as E } from '../../api/account.js';
import { WEBHOOK_EVENTS } from '../../schemas/enums.js';
import { tool } from '../tool.js';

const DeleteInput = z.strictObject({ id: z.string().min(1, 'is required') });

export const WEBHOOK_TOOLS = [
  tool({
    name: 'create_webhook',
    title: 'Register a webhook',
    description:
      `Register an https:// endpoint for events (${WEBHOOK_EVENTS.join(', ')}). Changes the account, so it needs a server started with --allow-spend; spends nothing. ` +
      'The returned secret (64 hex) signs deliveries (X-Service-Signature: sha256=HMAC of the raw body) and is shown only once.',
    access: 'write',
    input: E.createWebhook.body,
    output: E.createWebhook.response,
    async run(args, { session, signal }) {
      return session.api.webhooks.create(args, { signal });
    },
  }),
  tool({
    name: 'delete_webhook',
    title: 'Delete a webhook',
    description: 'Delete a webhook by id. Changes the account, so it needs a server started with --allow-spend; spends nothing.',
    access: 'write',
    input: DeleteInput,
    output: E.deleteWebhook.response,
    fields: { id: 'Webhook id from list_webhooks' },
    async run(args, { session, signal }) {
      return session.api.webhooks.delete(args.id, { signal });
    },
  }),
];
