# svc as one self-contained binary on a slim glibc base, running as a non-root user.
# Build: docker build -t svc .   Run: see docker-compose.yml and docs/operations.md.

# --- build: npm installs the runtime dependencies and the pinned bun (no dev or benchmark packages, so
# nothing native is compiled), then `bun run build`
FROM node:22-bookworm-slim AS build
WORKDIR /src
COPY package.json package-lock.json ./
COPY patches ./patches
RUN npm ci --omit=dev --no-audit --no-fund
COPY tsconfig.json ./
COPY sql ./sql
COPY src ./src
COPY scripts ./scripts
RUN node_modules/.bin/bun run build ./svc && ./svc --version

# --- runtime: only the binary. Same glibc (2.36) as the build stage; no node_modules, no source.
FROM debian:bookworm-slim AS runtime
RUN apt-get update \
 && apt-get install -y --no-install-recommends ca-certificates \
 && rm -rf /var/lib/apt/lists/* \
 && groupadd --system --gid 10001 svc \
 && useradd --system --uid 10001 --gid svc --home-dir /data --shell /usr/sbin/nologin svc \
 && mkdir -p /data && chown svc:svc /data
COPY --from=build --chown=root:root --chmod=0755 /src/svc /usr/local/bin/svc
USER 10001:10001
WORKDIR /data
# HOST=0.0.0.0 so the published port is reachable; off loopback the server refuses to mint a development
# key, so set SVC_API_KEY (or create keys with `svc keys create`). Embedded mode keeps data in /data.
ENV HOST=0.0.0.0 \
    PORT=8080 \
    SVC_DATA_DIR=/data/.svc-data \
    LOG_LEVEL=info
EXPOSE 8080
VOLUME ["/data"]
STOPSIGNAL SIGTERM
ENTRYPOINT ["/usr/local/bin/svc"]
CMD ["serve"]
