# Every command an operator or developer needs; README.md lists them.
GO       ?= go
FUZZTIME ?= 10s
BIN      ?= bin
# Packages whose tests run under the race detector: everything but test/, whose
# end-to-end tests drive the Apache Go client, which has data races of its own.
RACE_PKGS = $(shell $(GO) list ./... | grep -v '/test$$')

.PHONY: build test unit e2e bench fuzz run lint

build:
	$(GO) build -o $(BIN)/ ./cmd/...

test: lint unit e2e

unit:
	$(GO) test -race -count=1 $(RACE_PKGS)

e2e:
	$(GO) test -count=1 ./test/...

bench:
	$(GO) test -run '^$$' -bench . -benchmem ./remoting/... ./route/...

# Runs every Fuzz target of the module for FUZZTIME each; new corpus entries land in
# the package's testdata/fuzz folder and are committed.
fuzz:
	@set -e; for pkg in $$($(GO) list ./...); do \
	  dir=$$($(GO) list -f '{{.Dir}}' $$pkg); \
	  for t in $$(grep -ho '^func Fuzz[A-Za-z0-9_]*' $$dir/*_test.go 2>/dev/null | sed 's/^func //'); do \
	    echo "fuzz $$pkg $$t ($(FUZZTIME))"; \
	    $(GO) test -run '^$$' -fuzz "^$$t$$" -fuzztime $(FUZZTIME) $$pkg; \
	  done; \
	done

run:
	$(GO) run ./cmd/namesrv $(ARGS)

lint:
	@out=$$(gofmt -l $$(git ls-files '*.go')); if [ -n "$$out" ]; then echo "gofmt needed: $$out"; exit 1; fi
	$(GO) vet ./...
