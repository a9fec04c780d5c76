# Pandemonium: the web client, built with Node, and the server, built with Rust, in one small
# runtime image. `docker compose up` runs it with PostgreSQL.

FROM node:20-bookworm-slim AS web
WORKDIR /src/web-client
COPY web-client/package.json web-client/package-lock.json ./
RUN npm ci --no-audit --no-fund
COPY web-client/ ./
RUN npm run build

FROM rust:1-bookworm AS server
WORKDIR /src
COPY Cargo.toml Cargo.lock ./
COPY .cargo .cargo
COPY protocol protocol
COPY games games
COPY server server
COPY tests tests
COPY migrations migrations
RUN cargo build --release -p pandemonium-server --bin pandemonium

FROM debian:bookworm-slim
RUN apt-get update \
    && apt-get install -y --no-install-recommends ca-certificates curl \
    && rm -rf /var/lib/apt/lists/* \
    && useradd --system --home /srv/pandemonium pandemonium
WORKDIR /srv/pandemonium
COPY --from=server /src/target/release/pandemonium /usr/local/bin/pandemonium
COPY --from=web /src/web-client/dist web-client/dist
RUN mkdir data && chown pandemonium data
USER pandemonium
ENV PANDEMONIUM_BIND=0.0.0.0:8080 \
    PANDEMONIUM_LOG_FORMAT=json
EXPOSE 8080
HEALTHCHECK --interval=10s --timeout=3s --retries=5 CMD curl -fsS http://127.0.0.1:8080/readyz || exit 1
CMD ["pandemonium"]
