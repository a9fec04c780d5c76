#!/usr/bin/env bash
# The compose test (`make compose-test`): self-hosting with the real Dockerfile and
# docker-compose.yml, end to end, its `cluster` profile (three nodes behind HAProxy) included. It
#   - starts a Docker engine if none runs (installing Debian's docker.io, and docker-compose
#     when the engine's CLI has no `docker compose`), and stops the one it started;
#   - makes the base images when they cannot be pulled (base-images.sh says why and how);
#   - runs compose.test.mjs, whose steps print with their times;
#   - removes whatever the test made even when it fails: the project's containers, network and
#     volume and the images it built. The base images and the build cache are kept: they are
#     what makes the next run fast (`docker builder prune` and `docker rmi` remove them).
# Every wait has a time limit. Traffic stays on this machine: the port is published on
# 127.0.0.1 and the containers talk on their own network.
set -euo pipefail
cd "$(dirname "$0")/../.."
export DEBIAN_FRONTEND=noninteractive

say() { printf '[compose-test %s] %s\n' "$(date -u +%H:%M:%S)" "$*"; }
started_at=$(date +%s)

# What cleanup undoes, as far as the run got.
dockerd_pid= dockerd_log= bin= caddy_dir= COMPOSE=
export COMPOSE_PROJECT_NAME=pandemonium-compose-test
export PANDEMONIUM_IMAGE=pandemonium-compose-test
cleanup() {
    status=$?
    set +e
    say "cleaning up"
    if [ -n "$COMPOSE" ]; then
        timeout 120 $COMPOSE -f docker-compose.yml -f tests/compose/compose.test.yml \
            --profile cluster down -v --remove-orphans >/dev/null 2>&1
        timeout 60 docker rmi -f "$PANDEMONIUM_IMAGE:latest" "$PANDEMONIUM_IMAGE-haproxy:latest" \
            >/dev/null 2>&1
        # The image the upgrade step replaced is left without a name.
        timeout 60 docker image prune -f \
            --filter "label=org.opencontainers.image.title=Pandemonium" >/dev/null 2>&1
    fi
    if [ -n "$dockerd_pid" ]; then
        kill "$dockerd_pid" 2>/dev/null
        for _ in $(seq 1 40); do kill -0 "$dockerd_pid" 2>/dev/null || break; sleep 0.5; done
        # The engine's own log is kept only when something failed.
        if [ "$status" = 0 ]; then rm -f "$dockerd_log"; else say "the engine's log: $dockerd_log"; fi
    fi
    [ -n "$bin" ] && rm -rf "$bin"
    [ -n "$caddy_dir" ] && rm -rf "$caddy_dir"
    say "took $(($(date +%s) - started_at)) s in all; exit $status"
    exit $status
}
trap cleanup EXIT
trap 'exit 130' INT TERM

apt_updated=false
apt_install() {
    if [ "$apt_updated" = false ]; then
        apt-get update -qq
        apt_updated=true
    fi
    local log
    log=$(mktemp)
    apt-get install -y -qq --no-install-recommends "$@" >"$log" 2>&1 || { cat "$log"; return 1; }
    rm -f "$log"
}

# --- the engine -----------------------------------------------------------------------------
command -v dockerd >/dev/null || { say "installing docker.io"; apt_install docker.io; }
command -v debootstrap >/dev/null || apt_install debootstrap
if ! timeout 10 docker info >/dev/null 2>&1; then
    say "starting dockerd"
    # An engine that was killed (not stopped) leaves its pid file, and a new one refuses to start.
    if [ -f /var/run/docker.pid ] && ! kill -0 "$(cat /var/run/docker.pid)" 2>/dev/null; then
        rm -f /var/run/docker.pid
    fi
    dockerd_log=$(mktemp /tmp/pandemonium-dockerd.XXXXXX.log)
    dockerd >"$dockerd_log" 2>&1 &
    dockerd_pid=$!
    for _ in $(seq 1 60); do
        timeout 5 docker info >/dev/null 2>&1 && break
        kill -0 "$dockerd_pid" 2>/dev/null || { cat "$dockerd_log"; exit 1; }
        sleep 0.5
    done
    timeout 5 docker info >/dev/null || { tail -n 30 "$dockerd_log"; exit 1; }
fi

# The Dockerfile needs BuildKit. A Docker CLI from 23.0 on builds with it through the buildx
# plugin (and refuses DOCKER_BUILDKIT=1 without one); an older CLI, like Debian 12's, has it
# built in. So the CLI on PATH is used when it has buildx, and otherwise the first older one.
bin=$(mktemp -d /tmp/pandemonium-compose-bin.XXXXXX)
if ! docker buildx version >/dev/null 2>&1; then
    for cli in $(which -a docker); do
        major=$("$cli" version --format '{{.Client.Version}}' 2>/dev/null | cut -d. -f1)
        if [ -n "$major" ] && [ "$major" -lt 23 ]; then
            ln -s "$cli" "$bin/docker"
            break
        fi
    done
    [ -e "$bin/docker" ] || { say "no Docker CLI with BuildKit: install docker-buildx"; exit 1; }
fi
export PATH="$bin:$PATH"
export DOCKER_BUILDKIT=1 COMPOSE_DOCKER_CLI_BUILD=1

if docker compose version >/dev/null 2>&1; then
    COMPOSE="docker compose"
else
    command -v docker-compose >/dev/null || { say "installing docker-compose"; apt_install docker-compose; }
    COMPOSE="docker-compose"
fi
export COMPOSE

# --- what the test itself needs ---------------------------------------------------------------
[ -x /usr/bin/chromium ] || apt_install chromium fonts-dejavu-core
make --no-print-directory web-client/node_modules/.installed >/dev/null

# Debian's Caddy, for the step that puts deploy/Caddyfile in front: unpacked, not installed
# (installing it starts a Caddy service on ports 80 and 443 wherever systemd runs).
caddy_dir=$(mktemp -d /tmp/pandemonium-caddy.XXXXXX)
if ! (cd "$caddy_dir" && apt-get download caddy >/dev/null 2>&1); then
    apt-get update -qq
    (cd "$caddy_dir" && apt-get download caddy >/dev/null)
fi
dpkg-deb -x "$caddy_dir"/caddy_*.deb "$caddy_dir/root"
export CADDY="$caddy_dir/root/usr/bin/caddy"

# The server's published port, and HAProxy's in front of the `cluster` profile's three nodes:
# two free ports, both held while they are chosen so that they differ.
read -r PANDEMONIUM_PORT PANDEMONIUM_CLUSTER_PORT < <(python3 -c '
import socket
held = [socket.socket() for _ in range(2)]
for s in held: s.bind(("127.0.0.1", 0))
print(*(s.getsockname()[1] for s in held))')
export PANDEMONIUM_PORT PANDEMONIUM_CLUSTER_PORT


# A run that was killed before its cleanup may have left its stack behind.
timeout 120 $COMPOSE -f docker-compose.yml -f tests/compose/compose.test.yml \
    --profile cluster down -v --remove-orphans >/dev/null 2>&1 || true

say "base images"
t=$(date +%s)
timeout 1800 tests/compose/base-images.sh
say "base images ready in $(($(date +%s) - t)) s"

say "compose: $COMPOSE; published ports 127.0.0.1:$PANDEMONIUM_PORT (server), 127.0.0.1:$PANDEMONIUM_CLUSTER_PORT (HAProxy)"
timeout 5400 node --test --test-reporter=spec --test-concurrency=1 tests/compose/compose.test.mjs
