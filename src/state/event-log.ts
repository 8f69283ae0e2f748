import { z } from 'zod';
import { positionEventSchema } from '../positions/schemas.js';
import type { PositionEvent } from '../positions/types.js';
import { EventLogCorruptError } from './event-log-corrupt-error.js';
import { stateKeys } from './keys.js';
import type { LoggedEvent } from './poll-commit.js';
import type { RedisClient } from './redis-connection.js';

const routesSchema = z.array(
  z.object({
    channel: z.string(),
    verdict: z.enum(['send', 'defer', 'stage', 'skip', 'muted']),
    reason: z.string(),
  }),
);

/**
 * Recent events for `shortwatch events` and status: capped Redis streams, per issuer and global, each
 * entry the event and where routing sent it. Entries are appended by the poll's commit (poll-commit.ts).
 */
export class EventLog {
  readonly #redis: RedisClient;
  readonly #root: string;

  constructor(redis: RedisClient, root: string) {
    this.#redis = redis;
    this.#root = root;
  }

  /** The newest events first, of one issuer or of all; throws EventLogCorruptError on an unreadable entry. */
  async recent(options: { issuerId?: string; limit: number }): Promise<PositionEvent[]> {
    return (await this.recentLogged(options)).map((logged) => logged.event);
  }

  /** As {@link recent}, with each event's routing decisions. */
  async recentLogged(options: { issuerId?: string; limit: number }): Promise<LoggedEvent[]> {
    if (options.limit <= 0) return [];
    const keys = stateKeys(this.#root);
    const key = options.issuerId === undefined ? keys.events : keys.issuerEvents(options.issuerId);
    const entries = await this.#redis.xrevrange(key, '+', '-', 'COUNT', options.limit);
    return entries.map(([entryId, fields]) => parseEntry(key, entryId, fields));
  }
}

function field(fields: readonly string[], name: string): string | undefined {
  for (let i = 0; i + 1 < fields.length; i += 2) if (fields[i] === name) return fields[i + 1];
  return undefined;
}

function parseEntry(key: string, entryId: string, fields: readonly string[]): LoggedEvent {
  const raw = field(fields, 'event');
  if (raw === undefined) throw new EventLogCorruptError(key, entryId);
  let json: unknown;
  let routes: unknown;
  try {
    json = JSON.parse(raw);
    routes = JSON.parse(field(fields, 'routes') ?? '[]');
  } catch (cause) {
    throw new EventLogCorruptError(key, entryId, { cause });
  }
  const parsed = positionEventSchema.safeParse(json);
  if (!parsed.success) throw new EventLogCorruptError(key, entryId, { cause: parsed.error });
  const parsedRoutes = routesSchema.safeParse(routes);
  return { event: parsed.data, routes: parsedRoutes.success ? parsedRoutes.data : [] };
}
