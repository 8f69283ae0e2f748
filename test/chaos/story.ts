/** What a line of the story is about: a fault put in, something the suite saw, or a verdict. */
export type StoryKind = 'plan' | 'step' | 'inject' | 'saw' | 'check' | 'fail';

/** One timestamped line. */
export interface StoryLine {
  atMs: number;
  kind: StoryKind;
  text: string;
}

const MARK: Record<StoryKind, string> = {
  plan: 'plan  ',
  step: 'STEP  ',
  inject: 'inject',
  saw: 'saw   ',
  check: 'check ',
  fail: 'FAIL  ',
};

/**
 * The run told as it happened: every fault injected and everything observed, timestamped from the
 * start, so that a failure reads as a story rather than as a bare assertion.
 */
export class Story {
  readonly lines: StoryLine[] = [];
  readonly #start: number;
  readonly #echo: ((line: string) => void) | undefined;

  constructor(start: number, echo?: (line: string) => void) {
    this.#start = start;
    this.#echo = echo;
  }

  /** Milliseconds since the run started. */
  elapsed(): number {
    return Date.now() - this.#start;
  }

  /** Adds one line (and echoes it when the run prints as it goes). */
  add(kind: StoryKind, text: string): void {
    const line = { atMs: this.elapsed(), kind, text };
    this.lines.push(line);
    this.#echo?.(format(line));
  }

  /** The whole story, one line per entry. */
  toString(): string {
    return this.lines.map(format).join('\n');
  }
}

function format(line: StoryLine): string {
  return `+${(line.atMs / 1000).toFixed(1).padStart(6)}s ${MARK[line.kind]} ${line.text}`;
}
