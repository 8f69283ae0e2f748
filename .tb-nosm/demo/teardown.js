function bounded(work, ms, step) {
  let timer;
  const timeout = new Promise((_, reject) => {
    timer = setTimeout(() => reject(new Error(`${step}: gave up after ${ms} ms`)), ms);
  });
  return Promise.race([work, timeout]).finally(() => clearTimeout(timer));
}
class Teardown {
  #steps = [];
  /** Registers how to undo what was just started. */
  add(name, run) {
    this.#steps.push({ name, run });
  }
  /** Runs every step, newest first, each within `stepMs`; returns the problems instead of throwing. */
  async run(stepMs = 4e3) {
    const problems = [];
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
export {
  Teardown
};
