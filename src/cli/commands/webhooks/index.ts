/**
 * `trx-rent webhooks <command>`: manage webhook endpoints (create, list, delete), verify a
 * delivery, run a local receiver (listen), and drive the mock's deliveries (trigger, deliveries,
 * reactivate, redeliver). One file per subcommand in this folder; this module registers them.
 * @module
 */
import type { Command } from 'commander';
import type { CommandModule } from '../../types.js';
import { registerWebhooksCreate } from './create.js';
import { registerWebhooksDeliveries } from './deliveries.js';
import { registerWebhooksDelete } from './delete.js';
import { registerWebhooksList } from './list.js';
import { registerWebhooksListen } from './listen.js';
import { registerWebhooksReactivate } from './reactivate.js';
import { registerWebhooksRedeliver } from './redeliver.js';
import { registerWebhooksTrigger } from './trigger.js';
import { registerWebhooksVerify } from './verify.js';

const command: CommandModule = {
  description:
    'Manage webhook endpoints, verify a delivery, or run a local receiver that verifies each ' + 'delivery, prints it and forwards it (like `stripe listen`).',
  register(cmd: Command) {
    registerWebhooksCreate(cmd);
    registerWebhooksList(cmd);
    registerWebhooksDelete(cmd);
    registerWebhooksVerify(cmd);
    registerWebhooksTrigger(cmd);
    registerWebhooksDeliveries(cmd);
    registerWebhooksReactivate(cmd);
    registerWebhooksRedeliver(cmd);
    registerWebhooksListen(cmd);
  },
};

export default command;
