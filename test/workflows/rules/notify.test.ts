/**
 * Rule webhooks that cannot be signed or reached are said so before a run (`notifyWarnings`,
 * `probeWebhooks`, `RuleRunner.warnings`) and at run time (the decision's `notify_error`, a
 * `notified` journal line); a URL's `user:password@` goes as Basic authorization and never into
 * a warning, a decision or the journal.
 */
import { createServer } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { virtualClock } from '../../../src/index.js';
import { constructWebhookEvent } from '../../../src/webhooks/index.js';
import { MemoryJournal, RuleRunner, notifyWarnings, parseRules, probeWebhooks } from '../../../src/workflows/rules/index.js';
import { freePort } from '../../helpers/ports.js';
import { MINUTE, startWorld } from './helpers.js';

let world: Awaited<ReturnType<typeof startWorld>>;
const received: Array<{ url: string | undefined; authorization: string | undefined; signature: string | undefined; body: string }> = [];
const receiver = createServer((req, res) => {
  let body = '';
  req.on('data', (d) => (body += d));
  req.on('end', () => {
    received.push({ url: req.url, authorization: req.headers.authorization, signature: req.headers['x-service-signature'] as string | undefined, body });
    res.end('ok');
  });
});
let port: number;
beforeAll(async () => {
  world = await startWorld(40);
  await new Promise<void>((r) => receiver.listen(0, '127.0.0.1', () => r()));
  port = (receiver.address() as { port: number }).port;
});
afterAll(async () => {
  receiver.close();
  await world.mock.close();
});

const PASSWORD = 'hunter2-very-secret';
const rulesWith = (url: string) =>
  parseRules(
    JSON.stringify({
      notify: { webhook: { url, secret_env: 'HOOK_SECRET' } },
      rules: [{ id: 'ping', trigger: { type: 'price_below', price_sun: 1_000_000 }, action: { type: 'notify', message: 'hi' } }],
    }),
  );
const runner = (rules: ReturnType<typeof rulesWith>, env: Record<string, string>, journal = new MemoryJournal()) =>
  new RuleRunner({
    client: world.client(),
    rules,
    journal,
    dryRun: false,
    clock: virtualClock(world.time),
    tickMs: MINUTE,
    nodeRequestsPerSecond: 5,
    notify: { env },
  });

describe('rule webhooks', () => {
  it('an unset secret: warned before the run, on the decision and in the journal, never with the password', async () => {
    const rules = rulesWith(`http://alice:${PASSWORD}@127.0.0.1:${port}/hook`);
    expect(notifyWarnings(rules, {})).toEqual([
      `notify webhook http://[redacted]@127.0.0.1:${port}/hook (rule ping): HOOK_SECRET is not set, so its events cannot be signed and are not sent (each is journaled as not sent)`,
    ]);
    expect(notifyWarnings(rules, { HOOK_SECRET: 'whsec_x' })).toEqual([]);
    const journal = new MemoryJournal();
    const r = runner(rules, {}, journal);
    expect(r.warnings).toEqual(notifyWarnings(rules, {}));
    const before = received.length;
    const decisions = await r.tick();
    expect(decisions).toEqual([expect.objectContaining({ rule: 'ping', outcome: 'acted', notify_error: expect.stringContaining('HOOK_SECRET is not set') })]);
    expect((await journal.entries()).find((e) => e.kind === 'notified')).toMatchObject({ reason: expect.stringContaining('not sent: HOOK_SECRET is not set') });
    expect(received.length).toBe(before);
    expect(JSON.stringify([await journal.entries(), decisions, r.warnings])).not.toContain(PASSWORD);
  });

  it('user:password@ in the URL goes as Basic authorization; the event is signed and delivered', async () => {
    const rules = rulesWith(`http://alice:${PASSWORD}@127.0.0.1:${port}/hook`);
    const journal = new MemoryJournal();
    world.time.advance(10 * MINUTE); // a new window
    const decisions = await runner(rules, { HOOK_SECRET: 'whsec_x' }, journal).tick();
    expect(decisions).toEqual([expect.objectContaining({ outcome: 'acted' })]);
    expect(decisions[0]!.notify_error).toBeUndefined();
    const hit = received.at(-1)!;
    expect(hit.url).toBe('/hook');
    expect(hit.authorization).toBe(`Basic ${Buffer.from(`alice:${PASSWORD}`).toString('base64')}`);
    const event = await constructWebhookEvent(hit.body, hit.signature, 'whsec_x', { skipTimestampCheck: true });
    expect(event.event as string).toBe('rule.action');
    expect((await journal.entries()).some((e) => e.kind === 'notified')).toBe(false);
  });

  it('probeWebhooks names a webhook nobody listens on, and not one that answers', async () => {
    const dead = await freePort();
    const unreachable = rulesWith(`http://bob:${PASSWORD}@127.0.0.1:${dead}/hook`);
    const found = await probeWebhooks(unreachable, { timeoutMs: 5000 });
    expect(found).toEqual([`notify webhook http://[redacted]@127.0.0.1:${dead}/hook (rule ping): cannot be reached (ECONNREFUSED 127.0.0.1:${dead})`]);
    expect(await probeWebhooks(rulesWith(`http://127.0.0.1:${port}/hook`), { timeoutMs: 5000 })).toEqual([]);
    // Nothing was sent to the one that answers: the probe only connects.
    const before = received.length;
    await probeWebhooks(rulesWith(`http://127.0.0.1:${port}/hook`));
    expect(received.length).toBe(before);
  });
});
