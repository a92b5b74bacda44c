# smile-loop — every target a newcomer or CI needs. README names two: `make demo`, `make test`.
GO        ?= go
BIN       := bin/smile-action
LITE      ?= smile-lite:latest
GOTEST    := $(GO) test -race -shuffle=on -count=1

.PHONY: all build deps images demo lint test unit e2e bench fuzz clean

all: build

build:
	CGO_ENABLED=0 $(GO) build -trimpath -o $(BIN) ./cmd/smile-action

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
	$(GOTEST) -timeout 15m ./...; s=$$?; bash scripts/clean-test-containers.sh; exit $$s

# Heavy end-to-end runs on the real Docker Engine (build tag e2e).
e2e: build images
	$(GOTEST) -tags e2e -timeout 30m ./test/e2e/...; s=$$?; bash scripts/clean-test-containers.sh; exit $$s

# The README's test command: lint, unit tests (with -race) and end-to-end runs.
test: lint unit e2e

bench: images
	$(GO) test -run '^$$' -bench . -benchmem -count=1 ./...

fuzz:
	bash scripts/fuzz.sh

clean:
	rm -rf bin smile-output
