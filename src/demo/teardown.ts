/** One step of stopping the demo, run even when an earlier step failed. */
interface Step {
  name: string;
  run: () => Promise<unknown>;
}

/** What went wrong while stopping, by step. */
export interface TeardownProblem {
  step: string;
  problem: string;
}

function bounded<T>(work: Promise<T>, ms: number, step: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`${step}: gave up after ${ms} ms`)), ms);
  });
  return Promise.race([work, timeout]).finally(() => clearTimeout(timer));
}

/**
 * Everything the demo started, undone in reverse order; each step is bounded in time so that Ctrl-C
 * always finishes within seconds.
 */
export class Teardown {
  readonly #steps: Step[] = [];

  /** Registers how to undo what was just started. */
  add(name: string, run: () => Promise<unknown>): void {
    this.#steps.push({ name, run });
  }

  /** Runs every step, newest first, each within `stepMs`; returns the problems instead of throwing. */
  async run(stepMs = 4_000): Promise<TeardownProblem[]> {
    const problems: TeardownProblem[] = [];
    for (const step of this.#steps.splice(0).reverse()) {
      try {
        await bounded(step.run(), stepMs, step.name);
      } catch (error) {
        problems.push({ step: step.name, problem: error instanceof Error ? error.message : String(error) });
      }
    }
    return problems;
  }
}
