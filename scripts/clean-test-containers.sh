#!/usr/bin/env bash
# Removes learner containers that tests left behind: failing-on-purpose runs keep their
# container (container.keepOnFailure) and kill -9 tests leave one by design. Only
# containers whose work directory is a Go test temp dir (…/Test*/…) are touched, never a
# user's kept container under an output directory.
set -uo pipefail
tmp="${TMPDIR:-/tmp}"
# The runner emulation (test/e2e/action_runner_test.go): Action containers, job networks
# and Action images of tests that were killed before their cleanup.
docker ps -aq --filter label=smile-e2e-runner 2>/dev/null | xargs -r docker rm -f >/dev/null 2>&1
docker network ls -q --filter label=smile-e2e 2>/dev/null | xargs -r docker network rm >/dev/null 2>&1
docker image ls -q smile-action-e2e 2>/dev/null | xargs -r docker image rm -f >/dev/null 2>&1
ids=$(docker ps -aq --filter label=org.smile-loop.role=learner 2>/dev/null) || exit 0
[ -n "$ids" ] || exit 0
gone=0
for id in $ids; do
  work=$(docker inspect --format '{{range .Mounts}}{{if eq .Destination "/workspace/work"}}{{.Source}}{{end}}{{end}}' "$id" 2>/dev/null)
  case "$work" in
    "$tmp"/Test*) docker rm -f -v "$id" >/dev/null 2>&1 && gone=$((gone + 1)) ;;
  esac
done
[ "$gone" -eq 0 ] || echo "removed $gone learner container(s) left by tests"
