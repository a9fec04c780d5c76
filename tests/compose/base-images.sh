#!/usr/bin/env bash
# The base images the Dockerfile and docker-compose.yml name: the official ones when they can be
# pulled, otherwise stand-ins built under the same names from Debian's packages.
#
# Why stand-ins: the machines this project is developed and tested on reach Debian's packages,
# crates.io and the npm registry but no public image registry, so `docker pull` fails there. The
# test still has to build the real Dockerfile and run the real docker-compose.yml, so each image
# they start FROM is made locally with what the official one offers them:
#   debian:bookworm-slim  a debootstrapped Debian root, trimmed as the slim image is
#   node:20-bookworm-slim that root with this machine's Node.js 20 (Debian has 18)
#   rust:1-bookworm       that root with a C toolchain and this machine's Rust toolchain (no
#                         toolchain can be downloaded here)
#   postgres:15           Debian's PostgreSQL 15 with an entrypoint that honours POSTGRES_USER,
#                         POSTGRES_PASSWORD and POSTGRES_DB as the official one does
# The two build images also trust what this machine trusts (its CA bundle): its way out to the
# registries may be through a proxy with its own certificate authority. The runtime image is
# built FROM debian:bookworm-slim, which carries no such bundle, so none of it reaches the
# image that is shipped.
# An image that is already there (pulled or made by an earlier run) is left as it is.
#
# Usage: base-images.sh [--no-pull]   (--no-pull: make stand-ins without trying the registry)
set -euo pipefail

pull=true
[ "${1:-}" = "--no-pull" ] && pull=false

DEBIAN_MIRROR=${DEBIAN_MIRROR:-http://deb.debian.org/debian}
work=$(mktemp -d /tmp/pandemonium-base-images.XXXXXX)
trap 'rm -rf "$work"' EXIT

have() { docker image inspect "$1" >/dev/null 2>&1; }

# True when the image is there now: already present, or pulled within a minute.
present_or_pulled() {
    have "$1" && return 0
    [ "$pull" = true ] || return 1
    timeout 60 docker pull -q "$1" >/dev/null 2>&1
}

debian_slim() {
    present_or_pulled debian:bookworm-slim && return 0
    echo "making debian:bookworm-slim from Debian's packages (debootstrap)"
    command -v debootstrap >/dev/null || apt-get install -y -qq --no-install-recommends debootstrap
    local root=$work/rootfs
    debootstrap --variant=minbase bookworm "$root" "$DEBIAN_MIRROR" >"$work/debootstrap.log" 2>&1 ||
        { tail -n 20 "$work/debootstrap.log"; return 1; }
    # What the official slim image leaves out of every package installed later, and its sources.
    cat >"$root/etc/dpkg/dpkg.cfg.d/docker" <<'EOF'
path-exclude /usr/share/doc/*
path-include /usr/share/doc/*/copyright
path-exclude /usr/share/man/*
path-exclude /usr/share/groff/*
path-exclude /usr/share/info/*
path-exclude /usr/share/locale/*
path-exclude /usr/share/lintian/*
path-exclude /usr/share/linda/*
EOF
    # apt's caches are deleted after every install and update, as in the official image, or an
    # image that installs a package would carry 80 MB of them.
    cat >"$root/etc/apt/apt.conf.d/docker-clean" <<'EOF'
DPkg::Post-Invoke { "rm -f /var/cache/apt/archives/*.deb /var/cache/apt/archives/partial/*.deb /var/cache/apt/*.bin || true"; };
APT::Update::Post-Invoke { "rm -f /var/cache/apt/archives/*.deb /var/cache/apt/archives/partial/*.deb /var/cache/apt/*.bin || true"; };
Dir::Cache::pkgcache "";
Dir::Cache::srcpkgcache "";
EOF
    echo 'Acquire::Languages "none";' >"$root/etc/apt/apt.conf.d/docker-no-languages"
    cat >"$root/etc/apt/sources.list" <<EOF
deb $DEBIAN_MIRROR bookworm main
deb $DEBIAN_MIRROR bookworm-updates main
deb ${DEBIAN_MIRROR%/debian}/debian-security bookworm-security main
EOF
    rm -rf "$root"/var/cache/apt/archives/*.deb "$root"/var/cache/apt/*.bin \
        "$root"/var/lib/apt/lists/* "$root"/usr/share/doc/* "$root"/usr/share/man/* \
        "$root"/usr/share/locale/* "$root"/var/log/*
    tar -C "$root" -c . | docker import \
        --change 'ENV PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin' \
        --change 'CMD ["bash"]' - debian:bookworm-slim >/dev/null
}

node_image() {
    present_or_pulled node:20-bookworm-slim && return 0
    echo "making node:20-bookworm-slim from this machine's Node.js $(node --version)"
    local ctx=$work/node
    mkdir -p "$ctx"
    cp "$(command -v node)" "$ctx/node"
    cp -r "$(npm root -g)/npm" "$ctx/npm"
    cp /etc/ssl/certs/ca-certificates.crt "$ctx/ca-certificates.crt"
    cat >"$ctx/Dockerfile" <<'EOF'
FROM debian:bookworm-slim
COPY node /usr/local/bin/node
COPY npm /usr/local/lib/node_modules/npm
COPY ca-certificates.crt /etc/ssl/certs/ca-certificates.crt
ENV NODE_EXTRA_CA_CERTS=/etc/ssl/certs/ca-certificates.crt
RUN ln -s ../lib/node_modules/npm/bin/npm-cli.js /usr/local/bin/npm \
    && ln -s ../lib/node_modules/npm/bin/npx-cli.js /usr/local/bin/npx \
    && node --version && npm --version
CMD ["node"]
EOF
    docker build -q -t node:20-bookworm-slim "$ctx" >/dev/null
}

rust_image() {
    present_or_pulled rust:1-bookworm && return 0
    local sysroot
    sysroot=$(rustc --print sysroot)
    echo "making rust:1-bookworm from this machine's $(rustc --version)"
    local ctx=$work/rust
    mkdir -p "$ctx/toolchain"
    # The toolchain without its documentation (share/doc is most of its size).
    cp -a "$sysroot/bin" "$sysroot/lib" "$ctx/toolchain/"
    [ -d "$sysroot/libexec" ] && cp -a "$sysroot/libexec" "$ctx/toolchain/"
    cp /etc/ssl/certs/ca-certificates.crt "$ctx/ca-certificates.crt"
    cat >"$ctx/Dockerfile" <<'EOF'
FROM debian:bookworm-slim
RUN apt-get update \
    && apt-get install -y --no-install-recommends ca-certificates gcc libc6-dev make pkg-config \
    && rm -rf /var/lib/apt/lists/*
COPY ca-certificates.crt /etc/ssl/certs/ca-certificates.crt
COPY toolchain /usr/local/rust
ENV CARGO_HOME=/usr/local/cargo \
    PATH=/usr/local/cargo/bin:/usr/local/rust/bin:/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin
RUN mkdir -p /usr/local/cargo/bin && cargo --version && rustc --version
EOF
    docker build -q --network host -t rust:1-bookworm "$ctx" >/dev/null
}

postgres_image() {
    present_or_pulled postgres:15 && return 0
    echo "making postgres:15 from Debian's PostgreSQL 15"
    local ctx=$work/postgres
    mkdir -p "$ctx"
    cat >"$ctx/entrypoint.sh" <<'EOF'
#!/bin/bash
# The official image's contract: an empty data directory is initialised with POSTGRES_USER
# (a superuser, password POSTGRES_PASSWORD) and a database POSTGRES_DB; other connections
# than local ones need that password.
set -euo pipefail
: "${POSTGRES_USER:=postgres}"
: "${POSTGRES_DB:=$POSTGRES_USER}"
if [ "$(id -u)" = 0 ]; then
    mkdir -p "$PGDATA" /var/run/postgresql
    chown -R postgres:postgres "$PGDATA" /var/run/postgresql
    chmod 700 "$PGDATA"
    exec setpriv --reuid=postgres --regid=postgres --init-groups "$0" "$@"
fi
if [ ! -s "$PGDATA/PG_VERSION" ]; then
    if [ -z "${POSTGRES_PASSWORD:-}" ]; then
        echo "POSTGRES_PASSWORD is not set: refusing to start a database without a password" >&2
        exit 1
    fi
    initdb --username="$POSTGRES_USER" --pwfile=<(printf '%s\n' "$POSTGRES_PASSWORD") \
        --auth-local=trust --auth-host=scram-sha-256 -D "$PGDATA" >/dev/null
    echo "host all all all scram-sha-256" >>"$PGDATA/pg_hba.conf"
    echo "listen_addresses = '*'" >>"$PGDATA/postgresql.conf"
    pg_ctl -D "$PGDATA" -o "-c listen_addresses=''" -w start >/dev/null
    if [ "$POSTGRES_DB" != postgres ]; then
        psql -v ON_ERROR_STOP=1 --username "$POSTGRES_USER" --dbname postgres \
            -c "CREATE DATABASE \"$POSTGRES_DB\"" >/dev/null
    fi
    pg_ctl -D "$PGDATA" -m fast -w stop >/dev/null
    echo "PostgreSQL init process complete; ready for start up."
fi
exec "$@"
EOF
    cat >"$ctx/Dockerfile" <<'EOF'
FROM debian:bookworm-slim
RUN apt-get update \
    && apt-get install -y --no-install-recommends postgresql-15 \
    && rm -rf /var/lib/apt/lists/*
COPY entrypoint.sh /usr/local/bin/docker-entrypoint.sh
ENV PATH=/usr/lib/postgresql/15/bin:/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin \
    PGDATA=/var/lib/postgresql/data
RUN chmod +x /usr/local/bin/docker-entrypoint.sh
VOLUME /var/lib/postgresql/data
# Fast shutdown on `docker stop`, as the official image does.
STOPSIGNAL SIGINT
EXPOSE 5432
ENTRYPOINT ["docker-entrypoint.sh"]
CMD ["postgres"]
EOF
    docker build -q --network host -t postgres:15 "$ctx" >/dev/null
}

debian_slim
node_image
rust_image
postgres_image
