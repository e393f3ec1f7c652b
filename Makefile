# Marquee. `make run` and `make test` do all the set-up on a fresh machine (README.md).
SHELL := /bin/bash
.SHELLFLAGS := -eu -o pipefail -c
export GOTOOLCHAIN := local
export CGO_ENABLED := 0

VERSION ?= $(shell git describe --always --dirty 2>/dev/null || echo dev)
PORT ?= 8080
WEB := webapp
WEB_DEPS := $(WEB)/node_modules/.package-lock.json
GO_TEST_FLAGS ?= -count=1 -timeout 15m
STRIPE_MOCK_VERSION := v0.203.0
STRIPE_MOCK := bin/tools/stripe-mock
GOSEC_VERSION := v2.30.0
GOSEC := bin/tools/gosec

.PHONY: run build build-web build-go soak test lint-web lint-openapi gosec test-go test-fuzz fuzz test-web test-e2e vet types check-types bench load tools ocr clean

## run: build everything, then serve on an embedded SQLite database with demo data
run: build
	@mkdir -p var
	./bin/marquee seed --demo
	@echo
	@echo "Marquee is starting on http://localhost:$(PORT)"
	@echo "Demo accounts (password: demo-password-2026):"
	@echo "  advertiser   advertiser@marquee.demo"
	@echo "  admin        admin@marquee.demo"
	@echo "  super admin  superadmin@marquee.demo"
	@echo "  ambassador   ambassador@marquee.demo"
	@echo "  certified    certified@marquee.demo"
	@echo "Demo API key (the advertiser's, read-write): mq_live_demo0advertiser0key0for0local0use0only"
	@echo "  curl -H 'Authorization: Bearer mq_live_demo0advertiser0key0for0local0use0only' http://localhost:$(PORT)/api/v1/campaigns"
	@echo "Emails are written to var/mail/. Stop with Ctrl-C."
	@echo "Webhooks: run './bin/marquee dev webhook-sink' in another terminal to see the demo's deliveries."
	@echo "Screens: pair a player with the demo face (code printed by the seed above, single use, 24 h):"
	@echo "  ./bin/marquee dev player --server http://localhost:$(PORT) --pairing-code DEMO-FACE-0001 --speed 60 --duration 1h"
	@echo "  another face: ./bin/marquee screens pair --face FACE_ID (docs/screens.md)"
	@echo
	PORT=$(PORT) BASE_URL=$${BASE_URL:-http://localhost:$(PORT)} LOG_FORMAT=$${LOG_FORMAT:-text} WEBHOOK_ALLOW_PRIVATE=$${WEBHOOK_ALLOW_PRIVATE:-true} ./bin/marquee serve

## build: bin/marquee with the web app embedded
build: build-web build-go

$(WEB_DEPS): $(WEB)/package.json $(WEB)/package-lock.json
	cd $(WEB) && npm ci --no-audit --no-fund
	@touch $@

build-web: $(WEB_DEPS)
	cd $(WEB) && npm run build

build-go:
	go build -trimpath -ldflags "-s -w -X main.version=$(VERSION)" -o bin/marquee ./cmd/marquee

## test: vet, Go tests (SQLite, plus PostgreSQL when TEST_DATABASE_URL is set), web unit tests, end-to-end journeys
test: vet gosec check-types lint-web lint-openapi test-go test-fuzz test-web test-e2e

## lint-web: ESLint on the web app (typescript-eslint, React's hook rules, the import layers)
# The layers are those of docs/architecture.md "The web app".
lint-web: $(WEB_DEPS)
	cd $(WEB) && npm run lint

## lint-openapi: Redocly and Spectral lint the OpenAPI document the server serves
# It builds its own binary in a temporary folder: depending on build-go would build bin/marquee
# before build-web in make test, and make builds a target once, so the journeys would run a binary
# without the web app.
lint-openapi: $(WEB_DEPS)
	@tmp=$$(mktemp -d); trap 'rm -rf "$$tmp"' EXIT; \
	go build -o "$$tmp/marquee" ./cmd/marquee; \
	DATA_DIR="$$tmp" LOG_LEVEL=error "$$tmp/marquee" openapi > "$$tmp/openapi.json"; \
	cd $(WEB) && node scripts/lint-openapi.mjs "$$tmp/openapi.json"

vet:
	go vet ./...
	@unformatted=$$(gofmt -l cmd modules platform bench webapp/*.go *.go); \
	if [ -n "$$unformatted" ]; then echo "not gofmt'ed (run gofmt -w):"; echo "$$unformatted"; exit 1; fi

# gosec: the security linter. A finding is fixed, or justified in place with
# `// #nosec Gxxx -- why` (test files are not scanned: they are not in the binary).
gosec: $(GOSEC)
	$(GOSEC) -quiet -fmt text ./...

$(GOSEC):
	GOBIN=$(CURDIR)/bin/tools go install github.com/securego/gosec/v2/cmd/gosec@$(GOSEC_VERSION)

test-go: $(STRIPE_MOCK) ocr
	@echo "Go tests on SQLite$${TEST_DATABASE_URL:+ and PostgreSQL}"
	go test $(GO_TEST_FLAGS) ./...

# The fuzz targets, as package:Target:budget. Go fuzzes one target per `go test -fuzz`
# run, so they run one after the other, and the first failure stops the loop. FUZZ_TARGETS are the
# four make test runs; FUZZ_MORE only make fuzz.
#
# A budget is a count of runs (Nx), about 3 s each on the 2-vCPU machine, not a duration: on Go
# 1.26 a duration-bounded -fuzztime races the fuzz coordinator's own deadline and can fail at its
# end with a bare "context deadline exceeded" and no failing input (go.dev/issue/75804, fixed in
# Go 1.27; it failed stop 22's CI). A count sets no deadline, so there is nothing to race.
FUZZ_TARGETS := ./platform/httpx:FuzzBindJSON:15000x ./platform/money:FuzzParse:300000x \
	./platform/dates:FuzzParse:200000x ./modules/creatives:FuzzUploadSniff:3000x
FUZZ_MORE := ./platform/money:FuzzCentsArithmetic:300000x ./platform/dates:FuzzFormatParse:200000x \
	./platform/dates:FuzzScan:200000x ./modules/screens/internal/importfmt:FuzzParse:100000x
# FUZZTIME, when set, replaces every budget (make fuzz FUZZTIME=10m for a long exploration; with a
# duration the race above can end a clean run with that bare error: a real failure also writes its
# input under testdata/fuzz/).
FUZZTIME ?=

## fuzz: run every fuzz target for its budget (a few seconds; e.g. make fuzz FUZZTIME=10m)
fuzz:
	@set -e; for t in $(FUZZ_TARGETS) $(FUZZ_MORE); do \
	  pkg=$${t%%:*}; rest=$${t#*:}; fn=$${rest%%:*}; budget=$(or $(FUZZTIME),$${rest#*:}); \
	  echo "fuzz $$fn in $$pkg for $$budget"; \
	  go test -run '^$$' -fuzz "^$$fn\$$" -fuzztime $$budget $$pkg; \
	done

# test-fuzz: the four fuzz targets briefly, in make test. Their seed corpora also run as plain
# tests in test-go.
test-fuzz:
	@$(MAKE) --no-print-directory fuzz FUZZ_MORE=

test-web: $(WEB_DEPS) build-web
	cd $(WEB) && npm run typecheck && npm test
	cd $(WEB) && node scripts/check-budget.mjs

test-e2e: tools build
	cd $(WEB) && npm run e2e

## types: regenerate the TypeScript API types from the Go DTOs
types:
	go tool tygo generate

# The generated types must match the Go DTOs they come from, and the builder's pre-flight rules
# the Go rules they are generated from (docs/creatives.md).
PREFLIGHT_TS := $(WEB)/src/features/creatives/shared/preflightRules.gen.ts
check-types:
	@tmp=$$(mktemp -d); cp -r $(WEB)/src/platform/api-types $$tmp/before; \
	go tool tygo generate; \
	if ! diff -r $$tmp/before $(WEB)/src/platform/api-types >/dev/null; then \
	  echo "webapp/src/platform/api-types is stale: run make types and commit"; diff -r $$tmp/before $(WEB)/src/platform/api-types || true; exit 1; fi; \
	rm -rf $$tmp
	@cp $(PREFLIGHT_TS) $(PREFLIGHT_TS).before; go run ./modules/creatives/internal/preflight/gen; \
	if ! diff -q $(PREFLIGHT_TS).before $(PREFLIGHT_TS) >/dev/null; then \
	  echo "$(PREFLIGHT_TS) is stale: run go run ./modules/creatives/internal/preflight/gen and commit"; \
	  diff $(PREFLIGHT_TS).before $(PREFLIGHT_TS) || true; rm -f $(PREFLIGHT_TS).before; exit 1; fi; \
	rm -f $(PREFLIGHT_TS).before

## bench: the benchmarks under bench/ (figures go to docs/performance.md); the browser ones print each figure beside its goal
bench: tools build
	@uptime
	go test -run '^$$' -bench . -benchtime 3s -count 1 ./bench/...
	node bench/web/map-render.mjs --faces 10000 --runs 5
	node bench/web/lighthouse.mjs
	node bench/web/lighthouse.mjs --pages /locations --runs 1 --offline 1
	@# The same goals at a speed that does not depend on this host (bench/web/host-speed.mjs).
	node bench/web/map-render.mjs --faces 10000 --runs 5 --cpu reference
	node bench/web/lighthouse.mjs --pages /locations --runs 5 --cpu calibrated
	node bench/web/campaign-inp.mjs --runs 3
	@uptime

# The screens' ingest soak (bench/screens_soak_test.go; docs/screens.md "Ingest"): 1,250 plays a
# second on PostgreSQL for SOAK_DURATION, with the resident memory every 30 s.
SOAK_DURATION ?= 10m

## soak: the screens' ingest at a steady 1,250 plays/s on PostgreSQL for SOAK_DURATION (10m), RSS every 30 s
soak:
	TEST_DATABASE_URL='$(LOAD_DATABASE_URL)' SOAK_DURATION=$(SOAK_DURATION) go test -run '^$$' -bench PlaysSoak -benchtime 1x -timeout 30m -v ./bench/

# The load and soak run (bench/load; docs/performance.md "Load and soak"). The
# PostgreSQL run makes a fresh database on LOAD_DATABASE_URL's server and drops it afterwards.
LOAD_DURATION ?= 10m
LOAD_DATABASE_URL ?= postgres://postgres@127.0.0.1:5432/postgres?sslmode=disable

## load: the load mix for LOAD_DURATION (10m) on SQLite, then on PostgreSQL; tables in bin/load-*.md
load: build-go
	go build -o bin/load ./bench/load
	bin/load -binary bin/marquee -db sqlite -duration $(LOAD_DURATION) | tee bin/load-sqlite.md
	bin/load -binary bin/marquee -db postgres -pg '$(LOAD_DATABASE_URL)' -duration $(LOAD_DURATION) | tee bin/load-postgres.md

## tools: what the tests need from the machine (Chromium for Playwright, stripe-mock for the Stripe adapter, Tesseract for the creative pre-flight)
tools: $(STRIPE_MOCK) ocr
	@scripts/ensure-chromium.sh

# Tesseract reads the text of uploaded creatives (docs/creatives.md); the Go tests need it, and fail
# without it under CI=1.
ocr:
	@scripts/ensure-tesseract.sh

# stripe-mock is Stripe's API mock, the protocol peer of the billing module's Stripe adapter tests.
$(STRIPE_MOCK):
	GOBIN=$(CURDIR)/bin/tools go install github.com/stripe/stripe-mock@$(STRIPE_MOCK_VERSION)

clean:
	rm -rf bin $(WEB)/dist/assets $(WEB)/dist/index.html $(WEB)/dist/prerendered $(WEB)/dist/.vite $(WEB)/dist-ssr $(WEB)/test-output
