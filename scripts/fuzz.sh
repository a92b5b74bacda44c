#!/usr/bin/env bash
# Runs every Fuzz* target of the module for a bounded time each.
#   FUZZTIME=30s (default) per target; PKGS limits the packages (default ./...).
# Crashers are written by `go test` to the package's testdata/fuzz/<Target>/ — commit them:
# they become regression cases of the normal `go test` run.
set -euo pipefail
cd "$(dirname "$0")/.."
FUZZTIME="${FUZZTIME:-30s}"
PKGS="${PKGS:-./...}"
status=0
for pkg in $(go list "$PKGS"); do
  dir=$(go list -f '{{.Dir}}' "$pkg")
  targets=$(grep -ho '^func Fuzz[A-Za-z0-9_]*' "$dir"/*_test.go 2>/dev/null | sed 's/^func //' | sort -u || true)
  for target in $targets; do
    echo "== $pkg $target ($FUZZTIME)"
    if ! go test -run '^$' -fuzz "^${target}\$" -fuzztime "$FUZZTIME" "$pkg"; then
      echo "!! $pkg $target failed: see the crasher under $dir/testdata/fuzz/$target/" >&2
      status=1
    fi
  done
done
exit $status
