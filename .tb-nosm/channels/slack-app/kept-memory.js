const KEPT_RETRY_MS = { first: 100, max: 2e3 };
function keptMemory(memory, deps) {
  return {
    get: (key) => memory.get(key),
    async set(key, value, ttlMs) {
      for (let failures = 0; ; failures++) {
        try {
          await memory.set(key, value, ttlMs);
          return;
        } catch (error) {
          if (!deps.open()) throw error;
        }
        await deps.sleep(Math.min(KEPT_RETRY_MS.max, KEPT_RETRY_MS.first * 2 ** failures));
      }
    }
  };
}
export {
  KEPT_RETRY_MS,
  keptMemory
};
