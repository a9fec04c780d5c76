#!/usr/bin/env bash
# `make cluster`: a three-node cluster on this machine, for a person to try, behind HAProxy:
#
#   http://127.0.0.1:8080   HAProxy (deploy/haproxy.cfg): what a browser opens
#   127.0.0.1:8081-8083     node1, node2, node3 (`--cluster`), sharing one PostgreSQL database
#
# It checks PostgreSQL at 127.0.0.1:5432 (and starts Debian's cluster when it is installed but
# down and this runs as root), creates the database `pandemonium_cluster` if it is missing,
# starts the nodes one after the other and HAProxy in front, and prints the address. Ctrl-C
# stops everything it started: the nodes with SIGTERM (they release their rooms and flush),
# then HAProxy. A node that exits while it runs (try `kill -9` on one of the pids it prints) is
# reported, and the others take its rooms over once its leases run out.
#
# Settings (environment):
#   CLUSTER_PORT          HAProxy's port (8080); the nodes take the next three
#   CLUSTER_DATABASE_URL  postgres://postgres@127.0.0.1:5432/pandemonium_cluster
#   CLUSTER_LOG_DIR       where each process's log goes (target/cluster)
#   PANDEMONIUM_BIN       the server binary (target/release/pandemonium, built by the make target)
# Arguments are passed to every node, e.g. `deploy/cluster.sh --lease-ms 5000`
# (`make cluster ARGS="--lease-ms 5000"`).
set -euo pipefail
cd "$(dirname "$0")/.."

PORT=${CLUSTER_PORT:-8080}
DATABASE_URL=${CLUSTER_DATABASE_URL:-postgres://postgres@127.0.0.1:5432/pandemonium_cluster}
LOG_DIR=${CLUSTER_LOG_DIR:-target/cluster}
BIN=${PANDEMONIUM_BIN:-target/release/pandemonium}
NODES=(node1 node2 node3)

say() { printf '[cluster %s] %s\n' "$(date +%H:%M:%S)" "$*"; }
die() {
    say "$*" >&2
    exit 1
}

[ -x "$BIN" ] || die "no server binary at $BIN: build it first (make cluster does)"
command -v haproxy >/dev/null ||
    die "HAProxy is not installed: apt-get install haproxy (Debian's package; then \`service haproxy stop\` if the package started its own)"
command -v pg_isready >/dev/null && command -v psql >/dev/null ||
    die "PostgreSQL's client tools are missing: apt-get install postgresql (or postgresql-client for a database elsewhere)"

# --- PostgreSQL ------------------------------------------------------------------------------
# host:port of the database, from the URL (postgres://user[:password]@host:port/name).
db_host_port=${DATABASE_URL#*://}
db_host_port=${db_host_port#*@}
db_host_port=${db_host_port%%/*}
db_host=${db_host_port%%:*}
db_port=5432
[ "$db_host_port" != "$db_host" ] && db_port=${db_host_port##*:}
db_name=${DATABASE_URL##*/}
db_name=${db_name%%\?*}
admin_url=${DATABASE_URL%/*}/postgres

if ! pg_isready -h "$db_host" -p "$db_port" -q; then
    local_cluster=$(ls /etc/postgresql 2>/dev/null | head -n 1 || true)
    if [ "$db_host" = 127.0.0.1 ] && [ -n "$local_cluster" ] && [ "$(id -u)" = 0 ]; then
        say "starting PostgreSQL $local_cluster (Debian's cluster 'main')"
        pg_ctlcluster --skip-systemctl-redirect "$local_cluster" main start
        for _ in $(seq 1 30); do
            pg_isready -h "$db_host" -p "$db_port" -q && break
            sleep 1
        done
    fi
    pg_isready -h "$db_host" -p "$db_port" -q ||
        die "PostgreSQL does not answer at $db_host:$db_port: start it (\`sudo pg_ctlcluster 15 main start\` or \`sudo systemctl start postgresql\`), or name another with CLUSTER_DATABASE_URL"
fi
if [ -z "$(psql "$admin_url" -tAc "SELECT 1 FROM pg_database WHERE datname = '$db_name'")" ]; then
    say "creating the database $db_name"
    psql "$admin_url" -q -c "CREATE DATABASE \"$db_name\""
fi

# --- the processes ---------------------------------------------------------------------------
for n in 0 1 2 3; do
    if (exec 3<>"/dev/tcp/127.0.0.1/$((PORT + n))") 2>/dev/null; then
        die "port $((PORT + n)) is taken: stop what listens there, or move the cluster with CLUSTER_PORT"
    fi
done

mkdir -p "$LOG_DIR"
declare -A pid_of=()
haproxy_pid=

stop_all() {
    trap - INT TERM
    say "stopping: the nodes first (they release their rooms and flush), then HAProxy"
    for name in "${NODES[@]}"; do
        [ -n "${pid_of[$name]:-}" ] && kill -TERM "${pid_of[$name]}" 2>/dev/null || true
    done
    for name in "${NODES[@]}"; do
        pid=${pid_of[$name]:-}
        [ -n "$pid" ] || continue
        for _ in $(seq 1 150); do kill -0 "$pid" 2>/dev/null || break; sleep 0.1; done
        if kill -0 "$pid" 2>/dev/null; then
            say "$name did not stop within 15 s: killed"
            kill -KILL "$pid" 2>/dev/null || true
        fi
    done
    if [ -n "$haproxy_pid" ]; then
        kill -TERM "$haproxy_pid" 2>/dev/null || true
        for _ in $(seq 1 50); do kill -0 "$haproxy_pid" 2>/dev/null || break; sleep 0.1; done
    fi
    say "stopped; the logs are in $LOG_DIR/"
}
trap stop_all EXIT
trap 'exit 130' INT TERM

# Waits until http://127.0.0.1:PORT/readyz answers 200, while the process PID lives.
until_ready() {
    local port=$1 pid=$2 what=$3
    for _ in $(seq 1 300); do
        kill -0 "$pid" 2>/dev/null || die "$what exited at start: its log is $LOG_DIR/$what.log"
        if [ "$(curl -s -o /dev/null -w '%{http_code}' "http://127.0.0.1:$port/readyz")" = 200 ]; then
            return 0
        fi
        sleep 0.1
    done
    die "$what did not answer /readyz within 30 s: its log is $LOG_DIR/$what.log"
}

start_node() {
    local name=$1 port=$2
    shift 2
    # The nodes trust 127.0.0.1 as a proxy: HAProxy, and each other when a node forwards a
    # room's socket to its owner; both name the client in X-Forwarded-For.
    NO_COLOR=1 "$BIN" --cluster --node-name "$name" \
        --bind "127.0.0.1:$port" --internal-address "127.0.0.1:$port" \
        --database-url "$DATABASE_URL" \
        --trusted-proxy 127.0.0.1 --client-ip-header X-Forwarded-For \
        "$@" >>"$LOG_DIR/$name.log" 2>&1 &
    pid_of[$name]=$!
    # Watched by pid below; disowned so that a node killed by hand is reported by this script's
    # own line rather than by the shell's job notice.
    disown "${pid_of[$name]}"
}

: >"$LOG_DIR/haproxy.log"
for i in "${!NODES[@]}"; do
    name=${NODES[$i]}
    port=$((PORT + i + 1))
    : >"$LOG_DIR/$name.log"
    start_node "$name" "$port" "$@"
    # The first node runs the database's migrations: the others start once it is ready.
    until_ready "$port" "${pid_of[$name]}" "$name"
    say "$name ready on 127.0.0.1:$port (pid ${pid_of[$name]})"
done

PANDEMONIUM_FRONT="127.0.0.1:$PORT" \
    PANDEMONIUM_NODE1="127.0.0.1:$((PORT + 1))" \
    PANDEMONIUM_NODE2="127.0.0.1:$((PORT + 2))" \
    PANDEMONIUM_NODE3="127.0.0.1:$((PORT + 3))" \
    haproxy -f deploy/haproxy.cfg >>"$LOG_DIR/haproxy.log" 2>&1 &
haproxy_pid=$!
disown "$haproxy_pid"
until_ready "$PORT" "$haproxy_pid" haproxy

say "HAProxy ready on 127.0.0.1:$PORT (pid $haproxy_pid)"
say "open http://127.0.0.1:$PORT/ — logs: $LOG_DIR/{node1,node2,node3,haproxy}.log; Ctrl-C stops it all"

# Reports each process that exits until Ctrl-C; the cluster goes on without it.
while true; do
    for name in "${NODES[@]}"; do
        pid=${pid_of[$name]:-}
        if [ -n "$pid" ] && ! kill -0 "$pid" 2>/dev/null; then
            say "$name (pid $pid) exited: the others take its rooms over once its leases run out; its log is $LOG_DIR/$name.log"
            pid_of[$name]=
        fi
    done
    if ! kill -0 "$haproxy_pid" 2>/dev/null; then
        die "HAProxy exited: its log is $LOG_DIR/haproxy.log"
    fi
    sleep 1
done
