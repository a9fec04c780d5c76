# Pandemonium: the web client, built with Node, and the server, built with Rust, in one small
# runtime image. `docker compose up` runs it with PostgreSQL (see docs/operations.md).
#
# Needs BuildKit (Docker's builder since 23.0; `DOCKER_BUILDKIT=1` before): its cache mounts keep
# npm's downloads, cargo's registry and cargo's target dir between builds, so a rebuild after a
# change compiles only what changed instead of every dependency again (minutes on two cores).

FROM node:20-bookworm-slim AS web
WORKDIR /src/web-client
COPY web-client/package.json web-client/package-lock.json ./
RUN --mount=type=cache,target=/root/.npm npm ci --no-audit --no-fund
COPY web-client/ ./
RUN npm run build

FROM rust:1-bookworm AS server
WORKDIR /src
COPY Cargo.toml Cargo.lock ./
COPY .cargo .cargo
COPY protocol protocol
COPY wire wire
COPY games games
COPY server server
COPY tests tests
COPY migrations migrations
# The target dir is a cache mount, which is gone once the step ends: the binary is copied out.
# The sources are touched first: a COPY layer reused from an earlier build (same contents) keeps
# that build's file times, older than what the cache mount compiled since from other sources,
# and cargo, which judges by file times, would take those stale artifacts as fresh.
RUN --mount=type=cache,target=/usr/local/cargo/registry \
    --mount=type=cache,target=/src/target \
    find protocol wire games server tests migrations -type f -exec touch {} + \
    && cargo build --release --locked -p pandemonium-server --bin pandemonium \
    && cp target/release/pandemonium /usr/local/bin/pandemonium

FROM debian:bookworm-slim
# curl is for the healthcheck alone; the server makes no TLS connections of its own.
RUN apt-get update \
    && apt-get install -y --no-install-recommends curl \
    && rm -rf /var/lib/apt/lists/* \
    && groupadd --system --gid 10001 pandemonium \
    && useradd --system --uid 10001 --gid 10001 --home-dir /srv/pandemonium pandemonium
WORKDIR /srv/pandemonium
COPY --from=server /usr/local/bin/pandemonium /usr/local/bin/pandemonium
COPY --from=web /src/web-client/dist web-client/dist
# data/ is where the SQLite default keeps its file when no DATABASE_URL is given.
RUN mkdir data && chown pandemonium:pandemonium data
USER pandemonium
ENV PANDEMONIUM_BIND=0.0.0.0:8080 \
    PANDEMONIUM_LOG_FORMAT=json
EXPOSE 8080
HEALTHCHECK --interval=10s --timeout=3s --start-period=20s --retries=3 \
    CMD curl -fsS -o /dev/null http://127.0.0.1:8080/readyz || exit 1
# Which commit the image was built from (`docker inspect`), and what tells an upgraded image apart.
ARG REVISION=unknown
LABEL org.opencontainers.image.title="Pandemonium" \
      org.opencontainers.image.revision=$REVISION
CMD ["pandemonium"]
