import { setTimeout as sleep } from "node:timers/promises";
import { isBudgetExhaustedError } from "../budget/index.js";
async function withBudgetWait(wait, call, say) {
  for (; ; ) {
    try {
      return await call();
    } catch (error) {
      if (!wait || !isBudgetExhaustedError(error)) throw error;
      const ms = Math.max(250, error.retryAt - Date.now());
      say(`Rate budget empty (${error.reason}); waiting ${Math.ceil(ms / 1e3)}s for the next token\u2026`);
      await sleep(ms);
    }
  }
}
export {
  withBudgetWait
};
