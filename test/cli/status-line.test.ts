/**
 * The run's status line, rendered as a terminal shows it (test/cli/screen.ts): one spinner at a
 * time, other lines written above it, nothing drawn while held (a prompt waits), a retry's wait
 * counted down on it; and a retry in JSON mode as a `retrying` event only where the command
 * streams NDJSON. The redraw timer runs on vitest's fake clock.
 */
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { INSTALL_TIMEOUT_MS } from '../../scripts/lib/tools.mjs';
import type { RetryEvent } from '../../src/http/attempts.js';
import { Output } from '../../src/cli/output.js';
import { loadXterm, renderScreen } from './screen.js';

function output(mode: 'human' | 'json' = 'human') {
  const out = { text: '' };
  const err = { text: '' };
  // stdout and stderr are one terminal, as for a person: both write into the same screen.
  const both = { text: '' };
  const writer = (own: { text: string }) => ({
    isTTY: true,
    columns: 120,
    write(chunk: string | Uint8Array) {
      const text = typeof chunk === 'string' ? chunk : Buffer.from(chunk).toString('utf8');
      own.text += text;
      both.text += text;
      return true;
    },
  });
  const o = new Output({ mode, stdoutColor: false, stderrColor: false, spinner: true, stdout: writer(out), stderr: writer(err) });
  return { o, out, err, screen: () => renderScreen(both.text) };
}

const event = (over: Partial<RetryEvent> = {}): RetryEvent => ({
  label: 'POST /wallet/gettransactioninfobyid',
  host: '127.0.0.1:8787',
  status: 429,
  code: 'RATE_LIMITED',
  retry: 1,
  maxRetries: 2,
  delayMs: 3_000,
  retryAfter: true,
  ...over,
});

beforeAll(async () => {
  await loadXterm();
}, INSTALL_TIMEOUT_MS);
beforeEach(() => {
  vi.useFakeTimers({ toFake: ['setInterval', 'clearInterval', 'Date'] });
});
afterEach(() => {
  vi.useRealTimers();
});

describe('the status line', () => {
  it('writes other lines above the spinner, which stays the last line', async () => {
    const { o, screen } = output();
    const spinner = o.spinner('Checking the rows…');
    vi.advanceTimersByTime(400);
    o.print('Batch pb-1: 3 rows');
    o.info('a note');
    vi.advanceTimersByTime(400);
    expect((await screen()).split('\n')).toEqual(['Batch pb-1: 3 rows', 'a note', expect.stringMatching(/^[⠋⠙⠹⠸⠼⠴⠦⠧⠇⠏] Checking the rows…$/)]);
    spinner.stop('done');
    expect(await screen()).toBe('Batch pb-1: 3 rows\na note\ndone');
  });

  it('draws nothing while held: a question written meanwhile stays on the screen; released, the spinner comes back under it', async () => {
    const { o, err, screen } = output();
    o.spinner('Checking the rows…');
    vi.advanceTimersByTime(200);
    const release = o.hold();
    expect(o.statusShown).toBe(false);
    const before = err.text.length;
    // What a prompt writes (on stdout), then many frames' time.
    o.plain('? Pay 3 rows for about 1,000 SUN? (y/N) ');
    vi.advanceTimersByTime(5_000);
    expect(err.text.length).toBe(before);
    expect(await screen()).toBe('? Pay 3 rows for about 1,000 SUN? (y/N)');
    o.plain('y\n');
    release();
    release(); // once only
    expect(o.statusShown).toBe(true);
    vi.advanceTimersByTime(200);
    expect((await screen()).split('\n')).toEqual(['? Pay 3 rows for about 1,000 SUN? (y/N) y', expect.stringMatching(/ Checking the rows…$/)]);
  });

  it('holds nest: the spinner comes back only when the last hold is released', () => {
    const { o } = output();
    o.spinner('waiting');
    const outer = o.hold();
    const inner = o.hold();
    inner();
    expect(o.statusShown).toBe(false);
    outer();
    expect(o.statusShown).toBe(true);
  });

  it('a spinner started while held waits for the release to draw', async () => {
    const { o, err, screen } = output();
    const release = o.hold();
    o.spinner('Renting…');
    vi.advanceTimersByTime(1_000);
    expect(err.text).toBe('');
    release();
    expect(await screen()).toMatch(/ Renting…$/);
  });

  it('one spinner at a time: a new one takes the line; the old one can neither draw nor erase it', async () => {
    const { o, screen } = output();
    const first = o.spinner('Checking the rows…');
    vi.advanceTimersByTime(200);
    const second = o.spinner('Renting…');
    first.update('stale text');
    vi.advanceTimersByTime(1_000);
    expect(await screen()).toMatch(/^[⠋⠙⠹⠸⠼⠴⠦⠧⠇⠏] Renting…$/);
    first.stop();
    vi.advanceTimersByTime(200);
    expect(await screen()).toMatch(/^[⠋⠙⠹⠸⠼⠴⠦⠧⠇⠏] Renting…$/);
    second.stop('rented');
    expect(await screen()).toBe('rented');
  });

  it('a retry is said on the spinner line, counting down, and leaves when its wait is over', async () => {
    const { o, screen } = output();
    o.spinner('[###-------] 3/10 confirmed');
    o.retrying(event());
    expect(await screen()).toMatch(/3\/10 confirmed · rate limited by 127\.0\.0\.1:8787 \(429\), retrying in 3 s \(retry 1\/2\)$/);
    vi.advanceTimersByTime(1_100);
    expect(await screen()).toMatch(/retrying in 2 s \(retry 1\/2\)$/);
    vi.advanceTimersByTime(2_000);
    expect(await screen()).toMatch(/^[⠋⠙⠹⠸⠼⠴⠦⠧⠇⠏] \[###-------\] 3\/10 confirmed$/);
  });

  it('without a spinner a retry is a line on stderr; 503 and a lost answer say so', () => {
    const { o, err } = output();
    o.retrying(event({ status: 503, code: 'MAINTENANCE', delayMs: 400, retryAfter: false }));
    o.retrying(event({ status: undefined, code: 'CONNECTION_ERROR', retry: 2, delayMs: 1_500 }));
    expect(err.text).toBe(
      'service unavailable at 127.0.0.1:8787 (503), retrying in 0.4 s (retry 1/2)\n' +
        'no answer from 127.0.0.1:8787 (CONNECTION_ERROR), retrying in 2 s (retry 2/2)\n',
    );
  });
});

describe('a retry in JSON mode', () => {
  it('is a `retrying` event in an NDJSON stream, kept in order before its first line', () => {
    const { o, out, err } = output('json');
    o.retrying(event({ retry: 1 }));
    expect(out.text).toBe('');
    o.line({ event: 'planned' });
    o.retrying(event({ retry: 2, status: 503, code: 'MAINTENANCE', retryAfter: false, delayMs: 800 }));
    const lines = out.text
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l));
    expect(lines).toEqual([
      {
        event: 'retrying',
        host: '127.0.0.1:8787',
        status: 429,
        code: 'RATE_LIMITED',
        request: 'POST /wallet/gettransactioninfobyid',
        retry: 1,
        max_retries: 2,
        delay_ms: 3000,
        retry_after: true,
      },
      { event: 'planned' },
      {
        event: 'retrying',
        host: '127.0.0.1:8787',
        status: 503,
        code: 'MAINTENANCE',
        request: 'POST /wallet/gettransactioninfobyid',
        retry: 2,
        max_retries: 2,
        delay_ms: 800,
        retry_after: false,
      },
    ]);
    expect(err.text).toBe('');
  });

  it('never breaks a one-document result: held events are dropped when the result is written', () => {
    const { o, out } = output('json');
    o.retrying(event());
    o.result({ id: 'ord_1' });
    o.retrying(event({ retry: 2 }));
    expect(JSON.parse(out.text)).toEqual({ id: 'ord_1' });
  });
});
