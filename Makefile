# tooleval: make run evaluates an example batch; make test runs every test.
# Everything comes from go.mod (OPA is a `tool` dependency run as `go tool opa`).

SHELL       := /bin/bash
.SHELLFLAGS := -o pipefail -ec
GO          ?= go
OPA         := $(GO) tool opa
BUILD       := build
BUNDLE      := bundle/tooleval.tar.gz
REVISION    ?= $(shell git rev-parse --short=12 HEAD 2>/dev/null || echo dev)
DIRTY       := $(shell [ -n "$$(git status --porcelain 2>/dev/null)" ] && echo -dirty)
COVERAGE_MIN := 95
# Tests, opa and the go command are short-lived and allocate much: a
# larger heap target spends less CPU on garbage collection. make test
# took 10-15% less CPU with 200 than with Go's default of 100; 400 took
# the differential test 21.1 -> 15.5 user-s at 2,000 documents (peak
# heap a few hundred MB per process; the machine has 24 GiB).
GOGC        ?= 400
export GOGC
EXAMPLE     ?= inputs/delegation_chain.json
# Test binaries are linked without DWARF (-ldflags=-w): stack traces and
# race reports read the runtime's own tables, not DWARF, and linking the
# tests package's binary took 5.2 user-s with it, 2.2 without
# (go test -c ./tests/, 2026-12-03).
TESTLD      := -ldflags=-w

.PHONY: install test-go test-unit test-integration test-cedar test-race browser soak e2e lint bench bench-full perf-plot load run tooleval test test-rego fmt-check check coverage bundle generate expected clean

## run: build the command line and evaluate an example batch with the embedded bundle
run: tooleval
	@echo "# bin/tooleval eval -i $(EXAMPLE) --format table"
	@code=0; bin/tooleval eval -i $(EXAMPLE) --format table || code=$$?; [ $$code -eq 0 ] || [ $$code -eq 1 ] || [ $$code -eq 3 ]

## install: put the command line on the PATH: $(PREFIX)/bin/tooleval
## (PREFIX=/usr/local by default; PREFIX=$$HOME/.local needs no root)
PREFIX ?= /usr/local
install: tooleval
	install -d $(DESTDIR)$(PREFIX)/bin
	install -m 0755 bin/tooleval $(DESTDIR)$(PREFIX)/bin/tooleval
	@echo "installed $(DESTDIR)$(PREFIX)/bin/tooleval"

## tooleval: build the command line into bin/, with the checkout's revision
## linked in as the embedded bundle's revision (commit, -dirty with changes)
tooleval:
	$(GO) build -ldflags "-X github.com/tooleval/tooleval/engine.linkedRevision=$(REVISION)$(DIRTY)" -o bin/tooleval ./cmd/tooleval

## test: every test, in two lanes that run side by side on the machine's
## two cores, each stage announced as it starts and timed as it ends, its
## output prefixed with its lane:
##   rego: fmt-check, check, lint (Regal), coverage (opa test, coverage >= 95%),
##         test-race (here: the rego lane ends minutes before the go lane)
##   go:   bundle, browser, test-go (every Go package: unit and integration
##         tests), test-cedar (with the plot's tests)
## make test fails if any stage fails; the other lane runs to its end.
REGO_STAGES := fmt-check check lint coverage test-race
GO_STAGES   := bundle browser test-go test-cedar

# $(call lane,NAME,STAGES): run STAGES one after another, prefixed with NAME.
define lane
for stage in $(2); do \
	echo "==> [$(1)] make $$stage"; start=$$(date +%s); \
	if ! $(MAKE) --no-print-directory $$stage 2>&1 | sed -u 's/^/[$(1)] /'; then \
		echo "==> [$(1)] make $$stage: FAILED after $$(( $$(date +%s) - start ))s"; exit 1; \
	fi; \
	echo "==> [$(1)] make $$stage: $$(( $$(date +%s) - start ))s"; \
done
endef

test:
	@all=$$(date +%s); \
	( $(call lane,rego,$(REGO_STAGES)) ) & rego=$$!; \
	( $(call lane,go,$(GO_STAGES)) ) & go=$$!; \
	failed=""; wait $$rego || failed="$$failed rego"; wait $$go || failed="$$failed go"; \
	if [ -n "$$failed" ]; then echo "==> make test: FAILED (lane$$failed) after $$(( $$(date +%s) - all ))s"; exit 1; fi; \
	echo "==> make test: every stage green in $$(( $$(date +%s) - all ))s"

test-rego: fmt-check check lint coverage

fmt-check:
	@out=$$($(OPA) fmt --list policies); \
	if [ -n "$$out" ]; then echo "opa fmt would change:"; echo "$$out"; exit 1; fi
	@echo "opa fmt: clean"

check:
	$(OPA) check --strict policies
	@echo "opa check --strict: clean"

# --coverage-runs= (empty) turns off opa test's two supplementary passes,
# which only label the lines not covered (index-excluded, early exit) and
# run every test twice more: the coverage figure is the same (98.98%),
# the stage took 18.6 s and 33 user-s instead of 54.6 s and 103 user-s
# (time opa test --coverage [--coverage-runs=] policies, 2026-12-04)
coverage: | $(BUILD)
	@$(OPA) test --timeout 300s --coverage --coverage-runs= --threshold $(COVERAGE_MIN) policies > $(BUILD)/coverage.json; rc=$$?; \
	printf 'rego line coverage: %s%% (minimum $(COVERAGE_MIN)%%)\n' \
		"$$(grep -o '"coverage": [0-9.]*' $(BUILD)/coverage.json | tail -n 1 | cut -d' ' -f2)"; \
	if [ $$rc -ne 0 ]; then $(OPA) test --timeout 300s policies; fi; \
	exit $$rc

## test-go: every Go package's tests in one go test run (its packages run
## side by side): the unit tests beside the code and tests/. tests/ is
## named first: it is the longest package, and go test starts packages in
## the order given, so the others run beside it instead of before it.
test-go: bundle browser
	TOOLEVAL_BUNDLE=$(CURDIR)/$(BUNDLE) $(GO) test $(TESTLD) -count=1 -timeout 30m ./tests/... ./...

## test-unit: the Go packages' own tests (everything but tests/)
test-unit: bundle
	TOOLEVAL_BUNDLE=$(CURDIR)/$(BUNDLE) $(GO) test $(TESTLD) -count=1 -timeout 30m $$($(GO) list ./... | grep -v '/tests')

## test-integration: tests/ (examples, REST, CLI, differential, gateway, browser)
test-integration: bundle browser
	TOOLEVAL_BUNDLE=$(CURDIR)/$(BUNDLE) $(GO) test $(TESTLD) -count=1 -timeout 30m ./tests/...

## test-cedar: the Cedar comparison's own module (its decisions against the
## golden files) and the plot's (tools/perfplot)
test-cedar:
	cd tests/bench/cedar && $(GO) test $(TESTLD) -count=1 ./...
	cd tools/perfplot && $(GO) test $(TESTLD) -count=1 ./...

## test-race: the engine's concurrency tests under the race detector,
## engines loaded side by side included (OPA's compiler is not safe to
## run twice at once: internal/astcompile) (the tests package's
## hot-reload race test runs in make soak: building that package with
## -race cost make test about a minute of CPU)
test-race:
	$(GO) test $(TESTLD) -count=1 -timeout 30m -race -run 'TestConcurrentUse|TestRunGuard|TestEmbeddedLoadsShareNothingTheyChange' ./engine/

## browser: Debian's chromium for the browser test of the diff report,
## installed when missing (the machine has no other browser source)
SUDO := $(shell [ "$$(id -u)" -eq 0 ] || echo sudo)
browser:
	@command -v chromium >/dev/null 2>&1 || { \
		echo "installing Debian's chromium for the browser test (apt-get install chromium)"; \
		$(SUDO) apt-get update -qq && DEBIAN_FRONTEND=noninteractive $(SUDO) apt-get install -y -qq chromium >/dev/null; }

## lint: Regal, the Rego linter (its own module: it cannot share go.mod with OPA 1.22)
lint:
	$(GO) tool -modfile=tools/regal/go.mod regal lint policies

## bundle: build the OPA bundle tarball from policies/ (revision = git commit);
## SIGNING_KEY=key.pem signs it (RS256), for servers that verify bundles
bundle:
	@mkdir -p $(dir $(BUNDLE))
	$(OPA) build --bundle policies --ignore '*_test.rego' --revision $(REVISION) --output $(BUNDLE) \
		$(if $(SIGNING_KEY),--signing-key $(SIGNING_KEY) --signing-alg RS256)

BENCH_ENGINE := Session|OneShot|Naive|Reference

## bench: the benchmark set at a short benchtime, for a quick look
bench:
	$(GO) test -run '^$$' -bench '$(BENCH_ENGINE)' -benchtime 3x ./engine/
	cd tests/bench/cedar && $(GO) test -run '^$$' -bench Cedar -benchtime 3x .

## bench-full: the benchmark set with -count 10 into build/bench.txt, summarized by benchstat
bench-full: | $(BUILD)
	$(GO) test -run '^$$' -bench '$(BENCH_ENGINE)' -benchmem -count 10 -timeout 60m ./engine/ | tee $(BUILD)/bench.txt
	cd tests/bench/cedar && $(GO) test -run '^$$' -bench Cedar -benchmem -count 10 . | tee -a ../../../$(BUILD)/bench.txt
	cd tools/perfplot && $(GO) tool benchstat ../../$(BUILD)/bench.txt

## perf-plot: docs/performance.png from build/bench.txt
perf-plot:
	cd tools/perfplot && $(GO) run . -in ../../$(BUILD)/bench.txt -out ../../docs/performance.png

ifndef SEED
SEED := $(shell date +%s)
endif

## soak: the race tests (the shared run guard over 1,000 trials, ten times the goroutines), then the differential test
## against the oracle on ten million documents, each also explained, the diff corpus and
## the configuration fuzz on 10,000 overlays, the property tests on ten times
## the generated documents of make test (TOOLEVAL_TEST_SCALE=10), every incomplete
## bundle (make test loads half), and the Rego's
## canonical names and NFC check on every code point (make test samples the
## unassigned and private-use planes), the URL fuzzer, and 5,000 URLs
## fetched for real by curl, wget, Python, Node and Go against the domain
## rules (make test fetches 51), and each benchmark command the docs show,
## run once (make test checks that it names benchmarks) (hours; not in CI)
## (the differential's seed is drawn and printed: SEED=N replays a run)
soak: bundle
	TOOLEVAL_RACE_TRIALS=1000 TOOLEVAL_TEST_SCALE=10 $(GO) test -count=1 -race -run 'TestRunGuardSharedBySessionsNeverOverspends|TestConcurrentUse|TestHotReloadUnderConcurrency' -v -timeout 0 ./engine/ ./tests/
	@echo "differential seed $(SEED) (replay: make soak SEED=$(SEED))"
	TOOLEVAL_DIFFERENTIAL_SEED=$(SEED) TOOLEVAL_DIFFERENTIAL_CASES=10000000 TOOLEVAL_EXPLAIN_EVERY=1 $(GO) test -count=1 -run TestDifferentialAgainstOracle -v -timeout 0 ./tests/
	TOOLEVAL_DIFF_CORPUS=10000 $(GO) test -count=1 -run TestDiffCorpus -v -timeout 0 ./tests/e2e/cli/
	TOOLEVAL_CONFIG_FUZZ_CASES=10000 $(GO) test -count=1 -run TestConfigurationFuzzNeverConflicts -v -timeout 0 ./tests/
	TOOLEVAL_BUNDLE=$(CURDIR)/$(BUNDLE) TOOLEVAL_TEST_SCALE=10 $(GO) test -count=1 -run 'TestProperty|TestRESTEqualsEmbedded|TestSessionEqualsOneShot|TestNumbersSpelledAsJavaScript|TestIncompleteBundlesAreRefused' -v -timeout 0 ./tests/ ./engine/
	TOOLEVAL_EVERY_CODE_POINT=1 $(GO) test -count=1 -run 'TestAgreementEveryCodePoint|TestNFCAgreement' -v -timeout 0 ./engine/canonical/
	$(GO) test -run '^$$' -fuzz FuzzShellReading -fuzztime 10m ./tests/
	$(GO) test -run '^$$' -fuzz FuzzURLReading -fuzztime 10m ./tests/
	TOOLEVAL_SHELL_EXEC_SEED=$(SEED) TOOLEVAL_SHELL_EXEC_CASES=50000 $(GO) test -count=1 -run TestShellReadingAgainstBash -v -timeout 0 ./tests/
	TOOLEVAL_URL_FETCH_CASES=5000 TOOLEVAL_URL_FETCH_SEED=$(SEED) $(GO) test -count=1 -run TestURLFetchersAgreeWithDomainRules -v -timeout 0 ./tests/
	TOOLEVAL_RUN_SHOWN_BENCHMARKS=1 $(GO) test -count=1 -run TestShownBenchmarksRun -v -timeout 0 ./tests/

## e2e: the agent runtimes' own releases (tests/e2e/package.json, pinned by
## its package-lock.json), installed with npm ci into build/e2e (once per
## lock file; npm's cache in build/e2e/npm-cache), driven on loopback:
## Claude Code, Gemini CLI and Codex headless against the scripted model server,
## Gemini CLI's policy engine, Codex's execpolicy; each compared with the imported
## overlay (never looser). TOOLEVAL_E2E_SEED=N replays the generated
## settings; the tests run side by side (-parallel 4: mostly waiting on the
## runtimes) (not part of make test; .ci/run runs it after make test)
## (the generated settings come from E2E_SEED, fixed so that CI replays the
## same runtimes' cases; make e2e E2E_SEED=$$(date +%s) probes new ones)
E2E_DIR  := $(BUILD)/e2e
E2E_SEED ?= 20261204
e2e: $(E2E_DIR)/node_modules/.installed
	TOOLEVAL_E2E_SEED=$(E2E_SEED) TOOLEVAL_E2E_NODE_MODULES=$(CURDIR)/$(E2E_DIR)/node_modules $(GO) test $(TESTLD) -tags e2e -count=1 -parallel 4 -timeout 15m -v ./tests/e2e/

# install scripts are not run: the drivers start the platform packages'
# binaries (optional dependencies) directly
$(E2E_DIR)/node_modules/.installed: tests/e2e/package.json tests/e2e/package-lock.json
	@mkdir -p $(E2E_DIR)
	cp tests/e2e/package.json tests/e2e/package-lock.json $(E2E_DIR)/
	cd $(E2E_DIR) && npm ci --ignore-scripts --no-audit --no-fund --cache $(CURDIR)/$(E2E_DIR)/npm-cache
	@touch $@

## load: fixed-rate load test of one OPA server on loopback (not part of make test)
load: bundle
	TOOLEVAL_BUNDLE=$(CURDIR)/$(BUNDLE) $(GO) test -count=1 -tags load -run TestLoad -v -timeout 10m ./tests/

## generate: regenerate the Unicode table from golang.org/x/text
generate:
	$(GO) generate ./...

## expected: rewrite inputs/expected/, the Cedar comparison's golden
## decisions (tests/bench/cedar/testdata), the wire formats' golden results
## (engine/wire/testdata), docs/cli.md's synopsis and DEVELOPMENT.md's
## package index from the current code
## (review the diff!)
expected: bundle
	TOOLEVAL_BUNDLE=$(CURDIR)/$(BUNDLE) TOOLEVAL_UPDATE_EXPECTED=1 $(GO) test -count=1 -run 'TestInputs|TestConfiguredInputs|TestVerifyGolden|TestLayoutIndexIsCurrent' ./tests/
	TOOLEVAL_UPDATE_EXPECTED=1 $(GO) test -count=1 -run 'TestBenchParity' ./engine/
	TOOLEVAL_UPDATE_EXPECTED=1 $(GO) test -count=1 -run 'TestCLIDocSynopsisIsCurrent' ./internal/cli/
	TOOLEVAL_UPDATE_EXPECTED=1 $(GO) test -count=1 ./engine/wire/

$(BUILD):
	@mkdir -p $@

clean:
	rm -rf $(BUILD) $(BUNDLE)
