/**
 * Type-level promises of the public API, checked by `tsc --noEmit` (npm run typecheck, run in
 * CI). Each `@ts-expect-error` must stay an error: if a type loosens, tsc fails on the unused
 * directive.
 */
import { type Order, extraFields, type OrderList, RateLimitedError, type TrxRent, TrxRentError, trxToSun, sunToTrx } from 'trx-rent';
import { type WebhookEvent, constructWebhookEvent, isKnownEvent } from 'trx-rent/webhooks';
import type { CreateOrderRequest } from 'trx-rent/schemas';
import type { z } from 'zod';

declare const client: TrxRent;
declare function expectType<T>(value: T): void;

export async function orders() {
  const order = await client.orders.create({
    resource_type: 'ENERGY',
    amount: 65_000,
    duration_sec: 3600,
    target_address: 'TJCnKsPa7y5okkXvQAidZBzqx3QyQ6sxMW',
  });
  expectType<Order>(order);
  expectType<string>(order.id);
  // Known statuses autocomplete, and unknown ones from the live service still type-check.
  if (order.status === 'FILLED' || order.status === 'PARTIALLY_FILLED') expectType<string>(order.status);

  // @ts-expect-error requests are strict: the live service's other field names are not accepted
  await client.orders.create({ resource_type: 'ENERGY', energy_amount: 65_000, duration_sec: 3600, target_address: 'T' });
  // @ts-expect-error resource_type is an enum
  await client.orders.create({ resource_type: 'GAS', amount: 1, duration_sec: 1, target_address: 'T' });

  const page = await client.orders.list({ status: 'FILLED', limit: 100 });
  expectType<OrderList>(page);
  for await (const o of client.orders.list()) expectType<Order>(o);
  const { response } = await client.orders
    .create({ resource_type: 'ENERGY', amount: 65_000, duration_sec: 3600, target_address: 'T' }, { idempotencyKey: 'k' })
    .withResponse();
  expectType<Response>(response);
  // @ts-expect-error limit is a number
  await client.orders.list({ limit: 'all' });
}

export function money() {
  expectType<number>(trxToSun('1.5'));
  expectType<string>(sunToTrx(1_500_000));
  type Req = z.input<typeof CreateOrderRequest>;
  expectType<Req['order_type']>('BROADCAST');
  // @ts-expect-error an order type that does not exist
  expectType<Req['order_type']>('FOK');
}

export function errors(error: unknown) {
  if (error instanceof RateLimitedError) expectType<number | undefined>(error.retryAfterMs);
  if (error instanceof TrxRentError) {
    expectType<string>(error.code);
    expectType<number | undefined>(error.status);
    // `code` is the union of known codes: a known one compares, a misspelt one does not compile.
    if (error.code === 'INSUFFICIENT_BALANCE' || error.code === 'CONNECTION_ERROR' || error.code === 'HTTP_502') expectType<string>(error.message);
    // @ts-expect-error a misspelt code (INSUFICIENT_BALANCE) has no overlap with the known codes
    if (error.code === 'INSUFICIENT_BALANCE') expectType<string>(error.message);
  }
}

export async function webhooks(raw: string, header: string | null) {
  // A switch on the verified event's name narrows `data`, with no helper.
  const event = await constructWebhookEvent(raw, header, 'secret');
  switch (event.event) {
    case 'order.filled':
    case 'order.failed':
      expectType<Order>(event.data);
      expectType<string>(event.data.id);
      break;
    case 'deposit.received':
      expectType<number>(event.data.amount_sun);
      // @ts-expect-error a deposit has no order fields
      event.data.fills;
      break;
    case 'withdrawal.completed':
      expectType<string | undefined>(event.data.tx_id);
      break;
    default:
      // events newer than this version arrive here, as sent
      expectType<string>((event as WebhookEvent).event);
  }
  // isKnownEvent still tells a stored or forwarded event apart at run time.
  const stored: WebhookEvent = event;
  if (isKnownEvent(stored) && stored.event === 'order.filled') expectType<Order>(stored.data);
}

export async function strictResponses(id: string) {
  const order = await client.orders.get(id);
  expectType<string>(order.id);
  // @ts-expect-error a misspelled field is a compile error (no index signature on responses)
  order.stauts;
  // @ts-expect-error nested objects too: a fill's misspelled field
  order.fills?.[0]?.tx_idd;
  // optional fields stay optional
  const expires: Order['expires_at'] = undefined;
  expectType<Order['expires_at']>(expires);
  // unknown fields the service adds stay readable at run time, explicitly
  expectType<unknown>(extraFields(order).priority_fee_sun);
  const balance = await client.balance.get();
  // @ts-expect-error
  balance.balance_trx_typo;
}
