# shortwatch container image.
#
#   docker build -t shortwatch .
#   docker network create shortwatch
#   docker run -d --name redis --network shortwatch -v shortwatch-redis:/data redis:7.4.2-alpine \
#     redis-server --appendonly yes --maxmemory-policy noeviction
#   set -a && . ./.env && set +a
#   docker run --rm --network shortwatch -e REDIS_URL=redis://redis:6379 \
#     -e SHORTWATCH_UPSTREAM_URL -e SHORTWATCH_API_KEY -e SLACK_WEBHOOK_URL -e SMTP_URL \
#     -v "$PWD/config/shortwatch.yaml:/app/config/shortwatch.yaml:ro" -p 127.0.0.1:9464:9464 shortwatch
#
# The last line runs `start`; `docker run --rm ... shortwatch status` runs any other CLI command, and
# `-e SHORTWATCH_HTTP_CONSOLE=true -e SHORTWATCH_HTTP_TOKEN` adds the web console (it needs the token).
# Redis is the `redis` container on the network both share: the container's own 127.0.0.1 has none, and
# the host's is not reachable from it. .env is loaded by the shell (`set -a`), which reads its quotes as
# compose does; `docker run --env-file .env` would pass them on literally, quotes and all.
# test/config/example-docker-run.test.ts reads these lines and runs them without Docker.
#
# Two stages: `build` compiles TypeScript to dist/ with the dev dependencies; the final stage holds the
# production dependencies, dist/, bin/ and config/ only, and runs as the unprivileged `node` user.
# bin/shortwatch.js runs dist/main.js when it exists, so tsx is never used inside the image.
# See docs/operations.md.

# A specific version, so that a rebuild gives the same image; raise it deliberately.
ARG NODE_IMAGE=node:22.12.0-bookworm-slim

# ---- build: dev dependencies, tsc -p tsconfig.build.json -> dist/ --------------------------------
FROM ${NODE_IMAGE} AS build
WORKDIR /app
# Manifests first, so the dependency layer is cached until they change.
COPY package.json package-lock.json ./
RUN npm ci --no-audit --no-fund
COPY tsconfig.json tsconfig.build.json ./
COPY src ./src
RUN npm run build

# ---- runtime: production dependencies and the compiled code -------------------------------------
FROM ${NODE_IMAGE} AS runtime
LABEL org.opencontainers.image.title="shortwatch" \
      org.opencontainers.image.description="Alerts on disclosed net short positions, in Slack and by email, within the upstream rate budget" \
      org.opencontainers.image.licenses="MIT"
# SHORTWATCH_HTTP_HOST: config/example.yaml binds http.host: ${SHORTWATCH_HTTP_HOST:-127.0.0.1}, and a
# container's loopback cannot be reached through a published port (-p); what the host exposes is up to -p.
ENV NODE_ENV=production \
    SHORTWATCH_CONFIG=/app/config/shortwatch.yaml \
    SHORTWATCH_HTTP_HOST=0.0.0.0
WORKDIR /app
COPY package.json package-lock.json ./
RUN npm ci --omit=dev --no-audit --no-fund && npm cache clean --force
COPY --from=build /app/dist ./dist
COPY bin ./bin
# Example and demo configs. The real config/shortwatch.yaml is mounted at run time (.dockerignore keeps
# a local one out of the image); its secrets come from the environment (${SHORTWATCH_API_KEY}, ...).
COPY config ./config
# The code stays root-owned and read-only to the process; only `shortwatch demo` writes (demo-out/).
RUN mkdir -p /app/demo-out && chown node:node /app/demo-out
USER node

# /healthz, /readyz, /metrics and the web console: config/example.yaml sets
# http.port: ${SHORTWATCH_HTTP_PORT:-9464} (see docs/operations.md).
EXPOSE 9464
# Liveness only: /readyz also fails while upstream access is revoked, which a restart cannot fix.
# Slim images have no curl; Node's own fetch does the request.
HEALTHCHECK --interval=30s --timeout=5s --start-period=30s --retries=3 \
  CMD ["node", "-e", "fetch('http://127.0.0.1:9464/healthz').then(r=>process.exit(r.ok?0:1),()=>process.exit(1))"]

# SIGTERM (docker stop) finishes jobs in flight, then exits; a second signal exits at once.
STOPSIGNAL SIGTERM
ENTRYPOINT ["node", "bin/shortwatch.js"]
CMD ["start"]
