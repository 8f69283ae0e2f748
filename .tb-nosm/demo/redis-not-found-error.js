class RedisNotFoundError extends Error {
  constructor(tried, reason) {
    super(
      [
        `the demo needs Redis: nothing answered at ${tried}, and ${reason}.`,
        "Get one, then run `npm run demo` again:",
        "  - with a package manager: `sudo apt-get install redis-server`, `brew install redis`, `sudo dnf install redis`",
        "    (the demo starts `redis-server` from your PATH by itself when nothing answers on 127.0.0.1:6379);",
        "  - with Docker: `docker compose up -d redis` (then publish its port, see docker-compose.yml),",
        "    or `docker run -d -p 127.0.0.1:6379:6379 redis:7-alpine`;",
        "  - or point REDIS_URL at a Redis you have (the demo uses its own key prefix and removes its keys)."
      ].join("\n")
    );
    this.tried = tried;
    this.reason = reason;
  }
  tried;
  reason;
  name = "RedisNotFoundError";
}
function isRedisNotFoundError(error) {
  return error instanceof RedisNotFoundError;
}
export {
  RedisNotFoundError,
  isRedisNotFoundError
};
