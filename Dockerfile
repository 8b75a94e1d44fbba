# syntax=docker/dockerfile:1.7
# One image for every role: `docker run faultline start --role collector` (or FAULTLINE_ROLE).
# Stage 1 installs everything and builds the four workspaces; stage 2 keeps only what runs:
# production dependencies, the built code, sql/ and the CLI, as the unprivileged `node` user.

FROM node:20.20.2-bookworm-slim AS build
WORKDIR /app
# Native builds (node-gyp) need these; they stay in this stage.
RUN apt-get update \
  && apt-get install -y --no-install-recommends python3 make g++ ca-certificates \
  && rm -rf /var/lib/apt/lists/*
COPY package.json package-lock.json ./
COPY instrumentation/package.json instrumentation/
COPY sql/package.json sql/
COPY collector/package.json collector/
COPY dashboard/package.json dashboard/
# Dependencies first (cached while only sources change); `prepare` builds once the sources are in.
RUN npm ci --ignore-scripts --no-audit --no-fund && npm rebuild
COPY . .
RUN npm run build && npm prune --omit=dev --no-audit --no-fund

FROM node:20.20.2-bookworm-slim AS runtime
# MALLOC_MMAP_THRESHOLD_: glibc hands large freed buffers back to the system instead of keeping
# them in its heap, so the collector's RSS returns after an overload (collector/bench/ingest.bench.mjs
# runs its collector with the same value).
ENV NODE_ENV=production \
    MALLOC_MMAP_THRESHOLD_=131072 \
    FAULTLINE_ROLE=all \
    FAULTLINE_DATA_DIR=/data \
    FAULTLINE_SPOOL_DIR=/data/wal \
    FAULTLINE_OTLP_HOST=0.0.0.0 \
    FAULTLINE_DASHBOARD_HOST=0.0.0.0 \
    FAULTLINE_ALERTS_HOST=0.0.0.0
WORKDIR /app
COPY --from=build --chown=node:node /app/package.json /app/package-lock.json ./
COPY --from=build --chown=node:node /app/node_modules ./node_modules
COPY --from=build --chown=node:node /app/instrumentation/package.json ./instrumentation/
COPY --from=build --chown=node:node /app/instrumentation/dist ./instrumentation/dist
COPY --from=build --chown=node:node /app/collector/package.json ./collector/
COPY --from=build --chown=node:node /app/collector/dist ./collector/dist
COPY --from=build --chown=node:node /app/dashboard/package.json /app/dashboard/next.config.mjs ./dashboard/
COPY --from=build --chown=node:node /app/dashboard/.next ./dashboard/.next
COPY --from=build --chown=node:node /app/dashboard/src/server/auth ./dashboard/src/server/auth
COPY --from=build --chown=node:node /app/sql ./sql
COPY --from=build --chown=node:node /app/scripts ./scripts
COPY --from=build --chown=node:node /app/bin ./bin
COPY --from=build --chown=node:node /app/deploy/example ./deploy/example
RUN mkdir -p /data && chown node:node /data
USER node
VOLUME ["/data"]
# OTLP/HTTP, OTLP/gRPC, dashboard, the alerts role alone.
EXPOSE 4318 4317 3000 9470
# Asks the role this container runs (FAULTLINE_ROLE) on its own port; non-zero when it is not healthy.
HEALTHCHECK --interval=10s --timeout=5s --start-period=30s --retries=3 CMD ["node", "scripts/healthcheck.mjs"]
ENTRYPOINT ["node", "bin/faultline.mjs"]
CMD ["start"]
