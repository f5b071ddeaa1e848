# Every command an operator or developer needs; README.md lists them.
GO       ?= go
FUZZTIME ?= 10s
RUNS     ?= 5
BIN      ?= bin
# Packages whose tests run under the race detector: everything but test/ and
# test/faults, whose end-to-end tests drive the Apache Go client, which has data
# races of its own (e2e runs them).
RACE_PKGS = $(shell $(GO) list ./... | grep -v -e '/test$$' -e '/test/')

.PHONY: build test unit e2e bench fuzz run lint monitoring-check deploy-check docs image

# What -version prints and build_info carries (internal/buildinfo): the
# toolchain's build info has no build time, and none of these when it does
# not stamp the VCS (-buildvcs=false, a git worktree), so they are linked in.
BUILDINFO  = github.com/gonamesrv/gonamesrv/internal/buildinfo
VERSION    ?= $(shell git describe --tags --always --dirty 2>/dev/null || echo unknown)
COMMIT     ?= $(shell git rev-parse HEAD 2>/dev/null)$(shell git diff --quiet HEAD 2>/dev/null || echo -dirty)
COMMIT_TIME ?= $(shell git log -1 --format=%cI 2>/dev/null)
BUILD_TIME ?= $(shell date -u +%Y-%m-%dT%H:%M:%SZ)
LDFLAGS    = -X $(BUILDINFO).moduleVersion=$(VERSION) -X $(BUILDINFO).commit=$(COMMIT) \
	-X $(BUILDINFO).commitTime=$(COMMIT_TIME) -X $(BUILDINFO).buildTime=$(BUILD_TIME)

build:
	$(GO) build -ldflags "$(LDFLAGS)" -o $(BIN)/ ./cmd/...

# Release archives: dist/gonamesrv-VERSION-linux-{amd64,arm64}.tar.gz (static
# namesrv, broker, mqadmin, their READMEs, LICENSE, CHANGELOG.md and docs/)
# and dist/SHA256SUMS, then
# checked (scripts/dist.sh: the sums verify, every binary is in each archive,
# static, for its architecture, and prints VERSION on -version).
.PHONY: dist
dist:
	GO=$(GO) VERSION=$(VERSION) LDFLAGS="$(LDFLAGS)" scripts/dist.sh

# The check of make dist alone, on the archives in dist/.
.PHONY: dist-check
dist-check:
	GO=$(GO) VERSION=$(VERSION) LDFLAGS="$(LDFLAGS)" scripts/dist.sh check

test: lint unit e2e monitoring-check deploy-check

# The deployment files under deploy/ (systemd units, container image,
# Kubernetes manifests, mqnamesrv/mqshutdown): their own module, deploy/go.mod,
# so that k8s.io/api stays out of the server's dependencies. Checks that need
# systemd-analyze or a container engine skip, saying why, without them.
deploy-check:
	cd deploy && $(GO) vet ./... && $(GO) test -count=1 ./...

# The container image (deploy/container/Containerfile) as IMAGE:VERSION,
# stamped through build arguments with what `make build` links in, so that
# -version and build_info name the build. ENGINE=podman builds with podman.
ENGINE ?= docker
IMAGE  ?= gonamesrv
image:
	$(ENGINE) build -f deploy/container/Containerfile \
		--build-arg VERSION=$(VERSION) --build-arg COMMIT=$(COMMIT) \
		--build-arg COMMIT_TIME=$(COMMIT_TIME) --build-arg BUILD_TIME=$(BUILD_TIME) \
		-t $(IMAGE):$(VERSION) .

# docs/dashboard.png (50 brokers, 2,000 topics) and docs/dashboard-1000.png
# (1,000 brokers, 100,000 topics), both with a peer NameServer that agrees,
# and docs/dashboard-peers-differ.png (the 50-broker page once its peer
# differs), taken by the dashboard's scale tests in
# headless Chromium (apt-get install chromium) at a 1,400 px window.
.PHONY: dashboard-screenshots
dashboard-screenshots:
	rm -f docs/dashboard.png docs/dashboard-1000.png docs/dashboard-peers-differ.png
	DASHBOARD_SCREENSHOT_50=$(CURDIR)/docs/dashboard.png DASHBOARD_SCREENSHOT_1000=$(CURDIR)/docs/dashboard-1000.png \
	  DASHBOARD_SCREENSHOT_PEERS_DIFFER=$(CURDIR)/docs/dashboard-peers-differ.png \
	  E2E_BUILD=../cmd/namesrv $(GO) test -count=1 -run 'TestDashboardAt(50|1000)Brokers' ./test/
	@test -s docs/dashboard.png && test -s docs/dashboard-1000.png && test -s docs/dashboard-peers-differ.png || { echo "dashboard-screenshots: no screenshot written (is chromium installed? the tests skip without it)"; exit 1; }

# The shipped alert rules: syntax (promtool check rules) and behaviour
# (promtool test rules); promtool comes with Debian's prometheus package.
# promtool comes with Debian's prometheus package, which .ci/run installs: in
# CI (CI set) a missing promtool fails; elsewhere the check is skipped, saying so.
monitoring-check:
	@if ! command -v promtool >/dev/null 2>&1; then \
	  if [ -n "$$CI" ]; then echo "monitoring-check: promtool not found (apt-get install prometheus)"; exit 1; fi; \
	  echo "monitoring-check: SKIPPED, promtool not found (apt-get install prometheus to check the alert rules)"; exit 0; \
	fi; \
	promtool check rules monitoring/prometheus-alerts.yml && cd monitoring && promtool test rules prometheus-alerts_test.yml

unit:
	$(GO) test -race -count=1 $(RACE_PKGS)

# One package at a time (-p 1): test/ and test/faults start real binaries on
# free loopback ports and time what they observe; run side by side on two
# cores they take each other's ports and processors.
e2e:
	$(GO) test -p 1 -count=1 ./test/...

# Benchmarks, not part of test/CI: the in-process Go benchmarks plus a wire run
# of cmd/nsbench against a fresh NameServer and the zero-work baseline; writes
# docs/performance.md and docs/route-latency.svg (a few minutes).
bench:
	GO=$(GO) BIN=$(BIN) scripts/bench.sh

# Only the wire run of bench (no Go benchmarks in the page).
.PHONY: bench-wire
bench-wire:
	GO=$(GO) BIN=$(BIN) WIRE_ONLY=1 scripts/bench.sh

# make test RUNS times in a row (default 5) under nice -n 10 on a fresh clone
# of HEAD, an uncached build looping beside it (scripts/steady.sh; about an
# hour on 2 cores, not in CI).
.PHONY: steady
steady:
	GO=$(GO) RUNS=$(RUNS) scripts/steady.sh

# Runs every Fuzz target of the module for FUZZTIME each (scripts/fuzz.sh);
# new corpus entries land in the package's testdata/fuzz folder and are committed.
fuzz:
	GO=$(GO) FUZZTIME=$(FUZZTIME) scripts/fuzz.sh

# Builds bin/namesrv, then exec's it in the recipe's shell: Ctrl-C reaches
# the server itself (not a `go run` parent), which stops gracefully and exits
# 0, so make does too. The first build downloads the modules (minutes on a
# cold cache).
run:
	$(GO) build -ldflags "$(LDFLAGS)" -o $(BIN)/namesrv ./cmd/namesrv
	exec $(BIN)/namesrv $(ARGS)

# A 3-node controller group on loopback (ports 9878, 9868, 9858 as Java's
# samples, Raft +1000, side ports +2000; BASE_PORT moves them), in the foreground until Ctrl-C
# (scripts/run-controller.sh; docs/controller.md).
.PHONY: run-controller
run-controller:
	GO=$(GO) BIN=$(BIN) scripts/run-controller.sh

# The opt-in interoperability tests against a real Apache RocketMQ 5.3.3
# (test/java5_*_test.go: Java brokers under our controller group and
# NameServer, our brokers under Java's DLedger controller, Java's mqadmin, the
# recorded controller script, Java brokers signing under a group with ACL, TLS
# and Raft mutual TLS, a rolling restart of a NameServer pair under Java
# clients), not part of test/CI: JAVA5_BUILD names the build of
# ../shared/java5/build.sh (docs/compatibility.md). About 12 minutes;
# at most three JVMs at once.
.PHONY: java5-interop
java5-interop:
	@test -n "$(JAVA5_BUILD)" || { echo "java5-interop: set JAVA5_BUILD to the build folder of ../shared/java5/build.sh (e.g. /tmp/javarmq5/build)"; exit 1; }
	JAVA5_BUILD=$(JAVA5_BUILD) $(GO) test -count=1 -v -timeout 30m -run '^TestJava5' ./test/

# docs/configuration.md from namesrv/config's key table (its test,
# TestConfigurationDocIsGenerated, fails when the committed page differs).
docs:
	$(GO) run ./namesrv/config/gendoc -out docs/configuration.md

lint:
	@out=$$(gofmt -l $$(git ls-files '*.go')); if [ -n "$$out" ]; then echo "gofmt needed: $$out"; exit 1; fi
	$(GO) vet ./...

# The figures at scale (100,000 topics on 1,000 brokers, the big lists, the
# expiry of 100 brokers, a 60,000-topic body, many client connections): a few
# minutes, not part of test/CI. Writes its own section of docs/performance.md
# (make bench keeps it).
.PHONY: bench-scale
bench-scale:
	$(GO) build -o $(BIN)/ ./cmd/namesrv ./cmd/nsbench
	@# not through a pipe, whose status would be tee's: a failing benchmark stops here
	$(GO) test -run '^$$' -bench Scale -benchtime 3x ./route/ ./namesrv/ >$(BIN)/scale-gobench.txt 2>&1; \
		status=$$?; cat $(BIN)/scale-gobench.txt; exit $$status
	$(BIN)/nsbench scale -namesrv $(BIN)/namesrv -loads 4x1 -gobench $(BIN)/scale-gobench.txt -out docs/performance.md

# The whole fault suite (test/faults with FAULTS_FULL=1, about 20 minutes, 10 of
# them the controller beside CPU and disk hogs; the network and disk cases need
# root): writes docs/reliability.md, also when a
# case fails. make e2e (hence make test and CI) runs its short form.
.PHONY: faults
faults:
	FAULTS_FULL=1 FAULTS_REPORT=$(CURDIR)/docs/reliability.md $(GO) test -count=1 -v -timeout 45m ./test/faults/

# The failover figures of the controller (not in CI; root, for the split-brain
# case's network namespaces; about 15 minutes): TRIALS trials of each case
# (test/faults TestFailoverBench with FAILOVER_BENCH=1), printed and written
# into the Failover figures section of docs/controller.md, also when a case fails.
TRIALS ?= 20
.PHONY: bench-failover
bench-failover:
	FAILOVER_BENCH=1 FAILOVER_TRIALS=$(TRIALS) FAILOVER_REPORT=$(CURDIR)/docs/controller.md $(GO) test -count=1 -v -timeout 90m -run '^TestFailoverBench$$' ./test/faults/

# The soak checker (not in CI): brokers joining, changing topics, leaving,
# killed and stopped at random against a pair of NameServers for DURATION,
# invariants checked all along; prints the counts and every violation.
DURATION ?= 10m
.PHONY: soak
soak:
	SOAK_DURATION=$(DURATION) $(GO) test -count=1 -v -timeout 0 -run '^TestSoak$$' ./test/faults/
