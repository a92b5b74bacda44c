# smile-loop — every target a newcomer or CI needs. README names two: `make demo`, `make test`.
GO        ?= go
BIN       := bin/smile-action
LITE      ?= smile-lite:latest
# The release version (a v1.2.3 tag on HEAD), else dev+<commit> (dev outside git).
VERSION   ?= $(shell git describe --tags --match 'v[0-9]*' --exact-match 2>/dev/null || \
               { c=$$(git rev-parse --short=12 HEAD 2>/dev/null) && echo dev+$$c; } || echo dev)
LDFLAGS   := -s -w -X main.version=$(VERSION)
ACTION_IMAGE ?= smile-action:dev
GOARCH    ?= $(shell $(GO) env GOARCH)
# Most tests wait on a learner container, not the CPU: four at a time per package keeps two
# cores busy (the default, GOMAXPROCS, left the deterministic Student's package at 26 min).
GOTEST    := $(GO) test -race -shuffle=on -count=1 -parallel 4

.PHONY: all build action-image deps images demo lint test unit e2e eval eval-held-out bench fuzz clean

all: build

build:
	CGO_ENABLED=0 $(GO) build -trimpath -ldflags "$(LDFLAGS)" -o $(BIN) ./cmd/smile-action

# The Action image (Dockerfile: FROM scratch) from a static linux binary built first; no
# registry needed.
action-image:
	CGO_ENABLED=0 GOOS=linux GOARCH=$(GOARCH) $(GO) build -trimpath -ldflags "$(LDFLAGS)" -o bin/linux-$(GOARCH)/smile-action ./cmd/smile-action
	bash scripts/action-context.sh bin/action-context $(GOARCH)=bin/linux-$(GOARCH)/smile-action
	docker build -f Dockerfile --build-arg TARGETARCH=$(GOARCH) -t $(ACTION_IMAGE) bin/action-context

# Debian packages the tests and images need on a fresh machine (debootstrap, chromium).
deps:
	bash scripts/deps.sh

# smile-lite: a small Debian learner image built from Debian packages, no registry needed.
images: deps
	bash images/smile-lite/build.sh $(LITE)

# The main job on a built-in example, in deterministic mode (no API key).
demo: build images
	./$(BIN) run --config examples/hello/smile.json

lint:
	@out=$$(gofmt -l $$(git ls-files '*.go' 2>/dev/null || find . -name '*.go')); \
	  if [ -n "$$out" ]; then echo "gofmt needed on:"; echo "$$out"; exit 1; fi
	$(GO) vet ./...
	@cp go.mod /tmp/smile-go.mod.bak; cp go.sum /tmp/smile-go.sum.bak; \
	  $(GO) mod tidy; \
	  if ! cmp -s go.mod /tmp/smile-go.mod.bak || ! cmp -s go.sum /tmp/smile-go.sum.bak; then \
	    echo "go mod tidy changed go.mod/go.sum: run 'go mod tidy' and commit"; exit 1; fi

# Tests leave no learner containers behind, pass or fail.
unit: images
	$(GOTEST) -timeout 30m ./...; s=$$?; bash scripts/clean-test-containers.sh; exit $$s

# Heavy end-to-end runs on the real Docker Engine (build tag e2e).
e2e: build images
	$(GOTEST) -tags e2e -timeout 30m ./test/e2e/...; s=$$?; bash scripts/clean-test-containers.sh; exit $$s

# Precision and recall of the deterministic mode on labelled tutorials. `eval` (part of
# `make test`, so of CI) scores testdata/corpus and, when it is beside the checkout (required
# in CI), ../shared/corpus; `eval-held-out` scores every held-out set testdata/corpus-blind*
# (about an hour on two cores, so not in CI). Both print figures and fail only when a
# tutorial cannot be run. EVAL_JOBS tutorials run at once.
EVAL_JOBS ?= 2
eval: build images
	@if [ -d testdata/corpus ]; then echo "== eval: testdata/corpus"; ./$(BIN) eval -j $(EVAL_JOBS) -v testdata/corpus || exit 1; fi
	@if [ -d ../shared/corpus ]; then echo "== eval: ../shared/corpus"; ./$(BIN) eval -j $(EVAL_JOBS) -v ../shared/corpus; \
	  elif [ "$$CI" = true ]; then echo "CI=true needs ../shared/corpus beside the checkout"; exit 1; fi

eval-held-out: build images
	@for c in $$(ls -d testdata/corpus-blind* | sort -V); do \
	  echo "== eval: $$c"; ./$(BIN) eval -j $(EVAL_JOBS) -v $$c || exit 1; done

# The README's test command: lint, unit tests (with -race), end-to-end runs and the
# corpus evaluation.
test: lint unit e2e eval

bench: images
	$(GO) test -run '^$$' -bench . -benchmem -count=1 ./...

fuzz:
	bash scripts/fuzz.sh

clean:
	rm -rf bin smile-output
