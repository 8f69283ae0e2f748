import { setTimeout as sleep } from 'node:timers/promises';
import { isBudgetExhaustedError } from '../budget/index.js';

/**
 * Runs an upstream call for the CLI. Without `--wait`, an empty budget fails at once (the message says
 * how long); with it, the command sleeps until the next token and tries again.
 */
export async function withBudgetWait<T>(
  wait: boolean,
  call: () => Promise<T>,
  say: (text: string) => void,
): Promise<T> {
  for (;;) {
    try {
      return await call();
    } catch (error) {
      if (!wait || !isBudgetExhaustedError(error)) throw error;
      const ms = Math.max(250, error.retryAt - Date.now());
      say(`Rate budget empty (${error.reason}); waiting ${Math.ceil(ms / 1000)}s for the next token…`);
      await sleep(ms);
    }
  }
}
