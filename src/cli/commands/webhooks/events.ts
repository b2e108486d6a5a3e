/**
 * The `--events` list of `webhooks create` and `webhooks listen`: comma-separated event names
 * of the API, or `all`.
 * @module
 */
import { WEBHOOK_EVENTS as EVENTS } from '../../facts.js';
import { parseChoice, parseList } from '../../parse.js';

/** A webhook event name of the API. */
export type WebhookEventName = (typeof EVENTS)[number];

/** The events of an `--events` value (`all`: every one); undefined when the option is absent. */
export function parseEvents(input: string | undefined): WebhookEventName[] | undefined {
  if (input === undefined) return undefined;
  const list = parseList(input);
  if (list.length === 1 && list[0] === 'all') return [...EVENTS];
  return list.map((e) => parseChoice(e, EVENTS, '--events'));
}
