/**
 * Type-level promises of the public API, checked by `tsc --noEmit` (npm run typecheck, run in
 * CI). Each `@ts-expect-error` must stay an error: if a type loosens, tsc fails on the unused
 * directive.
 */
import {
  type Order,
  type OrderList,
  RateLimitedError,
  TrxRent,
  TrxRentError,
  trxToSun,
  sunToTrx,
} from 'trx-rent';
import { type WebhookEvent, constructWebhookEvent, isKnownEvent } from 'trx-rent/webhooks';
import { CreateOrderRequest } from 'trx-rent/schemas';
import type { z } from 'zod';

declare const client: TrxRent;
declare function expectType<T>(value: T): void;

export async function orders() {
  const order = await client.orders.create({
    resource_type: 'ENERGY',
    amount: 65_000,
    duration_sec: 3600,
    target_address: 'TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6t',
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
  const { response } = await client.orders.create(
    { resource_type: 'ENERGY', amount: 65_000, duration_sec: 3600, target_address: 'T' },
    { idempotencyKey: 'k' },
  ).withResponse();
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
  }
}

export async function webhooks(raw: string, header: string | null) {
  const event: WebhookEvent = await constructWebhookEvent(raw, header, 'secret');
  if (isKnownEvent(event)) {
    switch (event.event) {
      case 'order.filled':
        expectType<Order>(event.data);
        break;
      case 'deposit.received':
        expectType<number>(event.data.amount_sun);
        break;
      case 'withdrawal.completed':
        expectType<string | undefined>(event.data.tx_id);
        break;
    }
  }
}
