import { z } from "zod";
import { positionEventSchema } from "../positions/schemas.js";
import { EventLogCorruptError } from "./event-log-corrupt-error.js";
import { stateKeys } from "./keys.js";
const routesSchema = z.array(
  z.object({
    channel: z.string(),
    verdict: z.enum(["send", "defer", "stage", "skip", "muted"]),
    reason: z.string()
  })
);
class EventLog {
  #redis;
  #root;
  constructor(redis, root) {
    this.#redis = redis;
    this.#root = root;
  }
  /** The newest events first, of one issuer or of all; throws EventLogCorruptError on an unreadable entry. */
  async recent(options) {
    return (await this.recentLogged(options)).map((logged) => logged.event);
  }
  /** As {@link recent}, with each event's routing decisions. */
  async recentLogged(options) {
    if (options.limit <= 0) return [];
    const keys = stateKeys(this.#root);
    const key = options.issuerId === void 0 ? keys.events : keys.issuerEvents(options.issuerId);
    const entries = await this.#redis.xrevrange(key, "+", "-", "COUNT", options.limit);
    return entries.map(([entryId, fields]) => parseEntry(key, entryId, fields));
  }
}
function field(fields, name) {
  for (let i = 0; i + 1 < fields.length; i += 2) if (fields[i] === name) return fields[i + 1];
  return void 0;
}
function parseEntry(key, entryId, fields) {
  const raw = field(fields, "event");
  if (raw === void 0) throw new EventLogCorruptError(key, entryId);
  let json;
  let routes;
  try {
    json = JSON.parse(raw);
    routes = JSON.parse(field(fields, "routes") ?? "[]");
  } catch (cause) {
    throw new EventLogCorruptError(key, entryId, { cause });
  }
  const parsed = positionEventSchema.safeParse(json);
  if (!parsed.success) throw new EventLogCorruptError(key, entryId, { cause: parsed.error });
  const parsedRoutes = routesSchema.safeParse(routes);
  return { event: parsed.data, routes: parsedRoutes.success ? parsedRoutes.data : [] };
}
export {
  EventLog
};
