# Pandemonium — the two commands that matter are `make run` and `make test`.

CARGO ?= cargo
WEB := web-client
# Screenshots the browser tests take, for people to look at.
SCREENSHOTS := $(WEB)/test-results/screenshots

.PHONY: run test test-rust test-web lint web typescript conformance-long bench load clean

## Build the web client (if present) and start the server on http://localhost:8080 (SQLite).
run: web
	$(CARGO) run --release -p pandemonium-server --bin pandemonium

## Every test: formatting, lints, Rust unit/integration/end-to-end tests; the web client's lints
## (ESLint, Prettier, svelte-check), unit and browser tests.
test: lint test-rust test-web

test-rust:
	$(CARGO) test --workspace --all-targets

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

test-web:
	@if [ -f $(WEB)/package.json ]; then \
		$(MAKE) $(WEB)/node_modules/.installed && \
		(cd $(WEB) && npm run lint && npm run check && npm test && npm run build) && \
		$(CARGO) build -p pandemonium-server --bin pandemonium -p pandemonium-e2e --bin pandemonium-test-server && \
		mkdir -p $(SCREENSHOTS) && \
		(cd $(WEB) && SCREENSHOTS_DIR=test-results/screenshots npm run test:browser) && \
		echo "browser test screenshots: $(SCREENSHOTS)"; \
	else echo "no web client yet"; fi

## Regenerate the TypeScript protocol bindings in web-client/src/protocol/.
typescript:
	UPDATE_TYPESCRIPT=1 $(CARGO) test -p pandemonium-games --test registry typescript

## The conformance harness with ten times the matches `make test` plays.
conformance-long:
	CONFORMANCE_MATCHES=20000 $(CARGO) test --release -p pandemonium-games --test registry every_registered_game

## The server under load on loopback: memory per idle connection, actions per second, latency,
## server CPU per action (10,000 idle connections need `ulimit -n` above 10,000). Twice: at a
## table's pace (4 actions/s per room: the latency people get), then flat out (the capacity).
LOADGEN := target/release/pandemonium-loadgen --server target/release/pandemonium-test-server \
	--idle 10000 --rooms 250 --game demos --seats 4 --options '{"mode":"complete"}' --seconds 20
load:
	$(CARGO) build --release -p pandemonium-e2e --bins
	$(LOADGEN) --rate 4
	$(LOADGEN)

## Criterion benchmarks of the engines.
bench:
	$(CARGO) bench -p pandemonium-soulitaire -p pandemonium-demos -p pandemonium-demon-klondike \
		-p pandemonium-demon-bound -p pandemonium-daemon-dice

clean:
	$(CARGO) clean
	rm -rf $(WEB)/dist $(WEB)/node_modules
