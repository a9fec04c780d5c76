# Pandemonium — the two commands that matter are `make run` and `make test`.

CARGO ?= cargo
WEB := web-client
# Screenshots the browser tests take, for people to look at.
SCREENSHOTS := $(WEB)/test-results/screenshots

.PHONY: run cluster test test-rust test-web lint web typescript conformance-long bench load load-cluster compose-test clean

## Build the web client (if present) and start the server on http://localhost:8080 (SQLite).
## Server flags go in ARGS: `make run ARGS="--bind 127.0.0.1:8080"`.
ARGS ?=
run: web
	$(CARGO) run --release -p pandemonium-server --bin pandemonium -- $(ARGS)

## Three cluster nodes sharing one PostgreSQL (127.0.0.1:5432, database pandemonium_cluster)
## behind HAProxy, on http://127.0.0.1:8080 (the nodes on 8081-8083); Ctrl-C stops them all.
## Needs Debian's haproxy and postgresql; deploy/cluster.sh says what it starts and where the
## logs go. Flags for every node go in ARGS: `make cluster ARGS="--lease-ms 5000"`.
cluster: web
	$(CARGO) build --release -p pandemonium-server --bin pandemonium
	bash deploy/cluster.sh $(ARGS)

## Every test: formatting, lints, Rust unit/integration/end-to-end tests; the web client's lints
## (ESLint, Prettier, svelte-check), unit and browser tests.
test: lint test-rust test-web

# What `make test` builds and tests of the Rust workspace (the browser tests' servers come from
# the same build: see test-web).
RUST_TARGETS := --workspace --all-targets

test-rust:
	$(CARGO) test $(RUST_TARGETS)

lint:
	$(CARGO) fmt --all -- --check
	$(CARGO) clippy --workspace --all-targets -- -D warnings

# The web client's dependencies are installed from its lock file whenever it changes.
$(WEB)/node_modules/.installed: $(WEB)/package-lock.json
	cd $(WEB) && npm ci --no-audit --no-fund
	touch $@

web:
	@if [ -f $(WEB)/package.json ]; then \
		$(MAKE) $(WEB)/node_modules/.installed && cd $(WEB) && npm run build; \
	else echo "no web client yet; the server will serve a notice page"; fi

# The browser tests' servers (target/debug/pandemonium and pandemonium-test-server) are built
# as `test-rust` builds them, with the test profile and the same targets (so the same
# features): after it, nothing is compiled again. The dev profile, or a build of the two
# binaries alone (fewer features), compiled every workspace crate again after `test-rust`.
test-web:
	@if [ -f $(WEB)/package.json ]; then \
		$(MAKE) $(WEB)/node_modules/.installed && \
		(cd $(WEB) && npm run lint && npm run check && npm test && npm run build) && \
		$(CARGO) build --profile test $(RUST_TARGETS) && \
		mkdir -p $(SCREENSHOTS) && \
		(cd $(WEB) && SCREENSHOTS_DIR=test-results/screenshots npm run test:browser) && \
		echo "browser test screenshots: $(SCREENSHOTS)"; \
	else echo "no web client yet"; fi

## Regenerate the TypeScript protocol bindings in web-client/src/protocol/, and the catalogue of
## games the client reads from the registry there (lobby facts, rules pages, rule names).
typescript:
	UPDATE_TYPESCRIPT=1 $(CARGO) test -p pandemonium-game-registry --test registry typescript

## The conformance harness with ten times the matches `make test` plays.
conformance-long:
	CONFORMANCE_MATCHES=20000 $(CARGO) test --release -p pandemonium-game-registry --test registry every_registered_game

## The server under load on loopback: memory per idle connection, actions per second, latency,
## server CPU per action (10,000 idle connections need `ulimit -n` above 10,000). Twice: at a
## table's pace (4 actions/s per room: the latency people get), then flat out (the capacity).
## The load generator starts the server with `--unlimited-address 127.0.0.1`: every simulated
## player comes from there, and loopback is limited per address like any other address.
LOADGEN := target/release/pandemonium-loadgen --server target/release/pandemonium-test-server \
	--idle 10000 --rooms 250 --game demos --seats 4 --options '{"mode":"complete"}' --seconds 20
load:
	$(CARGO) build --release -p pandemonium-e2e --bins
	$(LOADGEN) --rate 4
	$(LOADGEN)

## `make load` on PostgreSQL, first one server, then three cluster nodes behind HAProxy
## (deploy/haproxy.cfg): the same figures, and the database's own commits per second, which is
## what a cluster's nodes share. Needs PostgreSQL at 127.0.0.1:5432 (a database is made for
## each run and dropped) and Debian's haproxy.
POSTGRES_ADMIN ?= postgres://postgres@127.0.0.1:5432
load-cluster:
	$(CARGO) build --release -p pandemonium-e2e --bins
	$(LOADGEN) --postgres $(POSTGRES_ADMIN) --rate 4
	$(LOADGEN) --postgres $(POSTGRES_ADMIN) --cluster --rate 4
	$(LOADGEN) --postgres $(POSTGRES_ADMIN)
	$(LOADGEN) --postgres $(POSTGRES_ADMIN) --cluster

## Self-hosting end to end: builds the real Dockerfile with docker compose, plays a match in
## Chromium through the published port, restarts and upgrades the server in the middle of it,
## takes the stack down and up, restores a pg_dump (tests/compose/run.sh starts what it needs).
compose-test:
	bash tests/compose/run.sh

## Criterion benchmarks of the engines: every crate under games/ with a benches/ folder, so a new
## engine's benchmarks run without a list to edit here.
ENGINE_BENCHES := $(foreach benches,$(wildcard games/*/benches),\
	-p $(shell grep -m1 '^name = ' $(patsubst %/benches,%/Cargo.toml,$(benches)) | cut -d'"' -f2))
bench:
	$(CARGO) bench $(ENGINE_BENCHES) --benches

clean:
	$(CARGO) clean
	rm -rf $(WEB)/dist $(WEB)/node_modules
