/** No Redis answered and no `redis-server` could be started: the demo cannot run. */
export class RedisNotFoundError extends Error {
  override readonly name = 'RedisNotFoundError';

  constructor(
    /** The URL that was tried, without credentials. */
    readonly tried: string,
    /** Why the fallback did not work either. */
    readonly reason: string,
  ) {
    super(
      [
        `the demo needs Redis: nothing answered at ${tried}, and ${reason}.`,
        'Get one, then run `npm run demo` again:',
        '  - with a package manager: `sudo apt-get install redis-server`, `brew install redis`, `sudo dnf install redis`',
        '    (the demo starts `redis-server` from your PATH by itself when nothing answers on 127.0.0.1:6379);',
        '  - with Docker: `docker compose up -d redis` (then publish its port, see docker-compose.yml),',
        '    or `docker run -d -p 127.0.0.1:6379:6379 redis:7-alpine`;',
        '  - or point REDIS_URL at a Redis you have (the demo uses its own key prefix and removes its keys).',
      ].join('\n'),
    );
  }
}

/** Type guard for {@link RedisNotFoundError}. */
export function isRedisNotFoundError(error: unknown): error is RedisNotFoundError {
  return error instanceof RedisNotFoundError;
}
