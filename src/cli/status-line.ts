/**
 * The run's status line: the one line at the bottom of a terminal that a spinner or a progress
 * bar redraws in place (on stderr, human mode on a terminal). At most one spinner draws at a
 * time (a new one takes the line from the one before); every other line the run writes goes
 * above it (the line erased first, drawn again after); `hold()` takes it off the screen while
 * something waits for a person (the prompts service holds it for every question), so a redraw
 * can never erase a question; `note()` adds a passing remark to it (a retry's wait, counted
 * down) until its time is up.
 *
 * Only the status line's own control bytes (carriage return, erase line) are written around
 * the text, which is sanitised like every line people see (`sanitize.ts`).
 * @module
 */
import type { CliWriter } from './runtime.js';
import { sanitizeText } from './sanitize.js';
import type { Styles } from './styles.js';

/** A progress line on stderr, replaced in place until stopped (see {@link StatusLine.spinner}). */
export interface Spinner {
  update(text: string): void;
  stop(final?: string): void;
}

const FRAMES = ['⠋', '⠙', '⠹', '⠸', '⠼', '⠴', '⠦', '⠧', '⠇', '⠏'];
/** Carriage return and erase-line. */
const ERASE = '\r\u001b[2K';
/** Milliseconds between redraws. */
const FRAME_MS = 80;

/** The spinner that owns the line: its text, frame, timer, whether it is on screen. */
interface Owner {
  text: string;
  frame: number;
  timer: ReturnType<typeof setInterval> | undefined;
  drawn: boolean;
}

/** The status line of one run's stderr. */
export class StatusLine {
  readonly #stderr: CliWriter;
  readonly #e: Styles;
  readonly #keepStyles: boolean;
  readonly #now: () => number;
  #owner: Owner | undefined;
  #holds = 0;
  #note: { text: (remainingMs: number) => string; until: number } | undefined;

  constructor(options: { stderr: CliWriter; styles: Styles; keepStyles: boolean; now?: (() => number) | undefined }) {
    this.#stderr = options.stderr;
    this.#e = options.styles;
    this.#keepStyles = options.keepStyles;
    this.#now = options.now ?? Date.now;
  }

  /** Whether a spinner runs (drawn, or held off the screen). */
  get active(): boolean {
    return this.#owner !== undefined;
  }

  /** Whether the line is on the screen now (false while held). */
  get shown(): boolean {
    return Boolean(this.#owner?.drawn);
  }

  /**
   * A spinner with `text`, taking the line from any before it: that one's `update` then does
   * nothing and its `stop` only writes its final line (through `final`).
   */
  spinner(text: string, final: (text: string) => void): Spinner {
    if (this.#owner) this.#halt(this.#owner);
    const owner: Owner = { text, frame: 0, timer: undefined, drawn: false };
    this.#owner = owner;
    if (this.#holds === 0) this.#start(owner);
    return {
      update: (next) => {
        owner.text = next;
      },
      stop: (text) => {
        if (this.#owner === owner) {
          this.#halt(owner);
          this.#owner = undefined;
          this.#note = undefined;
        }
        if (text) final(text);
      },
    };
  }

  /** Writes something above the line: erased first (stdout and stderr share a terminal), drawn again after. */
  above(write: () => void): void {
    const owner = this.#owner;
    if (!owner?.drawn) {
      write();
      return;
    }
    this.#stderr.write(ERASE);
    owner.drawn = false;
    write();
    this.#draw(owner);
  }

  /**
   * Takes the line off the screen until the returned function is called (once; holds nest):
   * nothing draws while something waits for a person. Updates made meanwhile show once it is
   * drawn again.
   */
  hold(): () => void {
    this.#holds++;
    if (this.#holds === 1 && this.#owner) this.#halt(this.#owner);
    let released = false;
    return () => {
      if (released) return;
      released = true;
      this.#holds--;
      if (this.#holds === 0 && this.#owner) this.#start(this.#owner);
    };
  }

  /**
   * A remark after the spinner's text for `forMs` (its text made from the time left, so a wait
   * counts down); false when no spinner runs (the caller then writes a line of its own).
   */
  note(text: (remainingMs: number) => string, forMs: number): boolean {
    if (!this.#owner) return false;
    this.#note = { text, until: this.#now() + forMs };
    this.#draw(this.#owner);
    return true;
  }

  #draw(owner: Owner): void {
    if (this.#holds > 0 || owner !== this.#owner) return;
    const frame = this.#e.cyan(FRAMES[owner.frame++ % FRAMES.length] ?? '');
    const remaining = this.#note ? this.#note.until - this.#now() : 0;
    if (this.#note && remaining <= 0) this.#note = undefined;
    const note = this.#note ? ` ${this.#e.yellow(`· ${this.#note.text(remaining)}`)}` : '';
    this.#stderr.write(`${ERASE}${sanitizeText(`${frame} ${owner.text}${note}`, { keepStyles: this.#keepStyles })}`);
    owner.drawn = true;
  }

  #start(owner: Owner): void {
    this.#draw(owner);
    owner.timer = setInterval(() => this.#draw(owner), FRAME_MS);
    owner.timer.unref?.();
  }

  #halt(owner: Owner): void {
    if (owner.timer !== undefined) clearInterval(owner.timer);
    owner.timer = undefined;
    if (owner.drawn) this.#stderr.write(ERASE);
    owner.drawn = false;
  }
}
