/**
 * What `webhooks verify` and `webhooks listen` share (src/cli/commands/webhooks/secret.ts,
 * events.ts): the replay check's options and the `--events` list.
 */
import { describe, expect, it } from 'vitest';
import { WEBHOOK_EVENTS } from '../../../../src/cli/facts.js';
import { parseEvents } from '../../../../src/cli/commands/webhooks/events.js';
import { replayCheck } from '../../../../src/cli/commands/webhooks/secret.js';

describe('the replay check of verify and listen', () => {
  it("keeps the library's window by default, takes --tolerance N >= 1, and turns off only with --no-timestamp-check", () => {
    expect(replayCheck({ timestampCheck: true })).toEqual({});
    expect(replayCheck({ tolerance: '60', timestampCheck: true })).toEqual({ toleranceSec: 60 });
    expect(replayCheck({ timestampCheck: false })).toEqual({ skipTimestampCheck: true });
  });

  it('refuses --tolerance 0 (naming --no-timestamp-check), a contradiction, and a bad number', () => {
    expect(() => replayCheck({ tolerance: '0', timestampCheck: true })).toThrow(/--tolerance 0 no longer turns the replay check off/);
    expect(() => replayCheck({ tolerance: '60', timestampCheck: false })).toThrow(/contradict/);
    expect(() => replayCheck({ tolerance: 'soon', timestampCheck: true })).toThrow(/--tolerance/);
  });
});

describe('--events', () => {
  it('is absent, "all", or a comma-separated list of the API\'s events', () => {
    expect(parseEvents(undefined)).toBeUndefined();
    expect(parseEvents('all')).toEqual([...WEBHOOK_EVENTS]);
    expect(parseEvents(`${WEBHOOK_EVENTS[0]}, ${WEBHOOK_EVENTS[1]}`)).toEqual([WEBHOOK_EVENTS[0], WEBHOOK_EVENTS[1]]);
    expect(() => parseEvents('order.nope')).toThrow(/--events must be one of/);
  });
});
