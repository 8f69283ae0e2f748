import { keyRoot } from "../state/keys.js";
async function deleteKeysUnder(redis, prefix) {
  let cursor = "0";
  let deleted = 0;
  do {
    const [next, keys] = await redis.scan(cursor, "MATCH", `${keyRoot(prefix)}:*`, "COUNT", 500);
    cursor = next;
    if (keys.length > 0) deleted += await redis.unlink(...keys);
  } while (cursor !== "0");
  return deleted;
}
export {
  deleteKeysUnder
};
