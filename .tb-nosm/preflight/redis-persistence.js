import { z } from "zod";
import { redisErrorFields } from "../state/redis-error-fields.js";
const configValue = (name) => z.union([
  z.tuple([z.string(), z.string()]).transform(([, value]) => value),
  z.record(z.string(), z.string()).transform((map) => map[name])
]);
const AOF_ENABLED = /^aof_enabled:(\d)\s*$/m;
async function checkPersistence(node) {
  let refused;
  try {
    const aof = configValue("appendonly").parse(await node.config("GET", "appendonly"));
    const save = configValue("save").parse(await node.config("GET", "save"));
    if (aof === "yes") return { state: "persistent", how: "AOF (appendonly yes)" };
    if (save !== void 0 && save.trim() !== "") return { state: "persistent", how: `RDB (save ${save})` };
    return { state: "none" };
  } catch (error) {
    refused = `CONFIG GET refused: ${redisErrorFields(error).message}`;
  }
  try {
    if (AOF_ENABLED.exec(await node.info("persistence"))?.[1] === "1") {
      return { state: "persistent", how: "AOF (aof_enabled:1)" };
    }
    return { state: "unknown", reason: `${refused}; INFO shows no AOF` };
  } catch (error) {
    return { state: "unknown", reason: `${refused}; INFO refused: ${redisErrorFields(error).message}` };
  }
}
function persistenceWarning(address, persistence) {
  switch (persistence.state) {
    case "persistent":
      return void 0;
    case "none":
      return `redis appendonly is no and save is empty on the master ${address}: a restart loses every snapshot, queued alert and job (shortwatch then re-baselines, and changes in the gap are never told). Set appendonly yes (or RDB snapshots with save).`;
    case "unknown":
      return `redis persistence of the master ${address} could not be checked (${persistence.reason}); make sure it has AOF (appendonly yes) or RDB snapshots (save).`;
  }
}
export {
  checkPersistence,
  persistenceWarning
};
