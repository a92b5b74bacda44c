#!/usr/bin/env bash
# Smoke test of the LLM CLIs pinned in smile-base, run inside a freshly built image (the
# release workflow does it before anything is published):
#
#   docker run --rm smile-base:test bash /usr/local/lib/smile/smoke.sh
#
# For each CLI: its --version, then, for each role, the exact headless command line
# smile-wrapper builds (`smile-wrapper check ROLE`: same flags, settings file and
# environment as a real run) against a local fake provider API. It fails when a CLI
# refuses its command line (a flag the pinned version does not accept) or never reaches
# the API. The fake API answers every request 400 in the provider's error format, so no
# key and no network are needed.
#
# Environment: SMOKE_PROVIDERS (default "claude codex gemini"), SMOKE_PORT (default
# 18080), SMOKE_TIMEOUT (per run, default 120s).
set -euo pipefail

providers=${SMOKE_PROVIDERS:-claude codex gemini}
port=${SMOKE_PORT:-18080}
api="http://127.0.0.1:${port}"
dir=$(mktemp -d)
server=""
cleanup() {
  if [ -n "$server" ]; then kill "$server" 2>/dev/null || true; fi
  rm -rf "$dir"
}
trap cleanup EXIT
mkdir -p "$dir/work" "$dir/tutorial"

# The fake provider API: logs each request line, answers 400 in the provider's format
# (Anthropic /v1/messages, OpenAI /v1/responses, Gemini generateContent).
python3 - "$port" "$dir/requests.log" <<'PY' &
import json, sys
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

port, log = int(sys.argv[1]), sys.argv[2]

class H(BaseHTTPRequestHandler):
    def answer(self):
        n = int(self.headers.get("Content-Length") or 0)
        if n:
            self.rfile.read(n)
        with open(log, "a") as f:
            f.write(f"{self.command} {self.path}\n")
        msg = "smile-base smoke test: request received"
        if "/messages" in self.path:
            body = {"type": "error", "error": {"type": "invalid_request_error", "message": msg}}
        elif "/responses" in self.path or "/chat/completions" in self.path or "/models" in self.path and "/v1beta" not in self.path:
            body = {"error": {"message": msg, "type": "invalid_request_error", "param": None, "code": None}}
        else:
            body = {"error": {"code": 400, "message": msg, "status": "INVALID_ARGUMENT"}}
        data = json.dumps(body).encode()
        self.send_response(400)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(data)))
        self.end_headers()
        self.wfile.write(data)
    do_GET = do_POST = do_PUT = answer
    def log_message(self, *a):
        pass

ThreadingHTTPServer(("127.0.0.1", port), H).serve_forever()
PY
server=$!
for _ in $(seq 1 50); do
  if curl -s -o /dev/null "$api/ready"; then break; fi
  sleep 0.1
done

fail=0
for p in $providers; do
  if ! version=$("$p" --version 2>&1); then
    echo "FAIL $p --version: $version"
    fail=1
    continue
  fi
  echo "ok   $p --version: $version"
  case "$p" in
    claude) penv=(ANTHROPIC_BASE_URL="$api" ANTHROPIC_API_KEY=smoke-token DISABLE_AUTOUPDATER=1 CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC=1) ;;
    codex) penv=(OPENAI_BASE_URL="$api/v1" OPENAI_API_KEY=smoke-token CODEX_API_KEY=smoke-token) ;;
    gemini) penv=(GOOGLE_GEMINI_BASE_URL="$api" GEMINI_API_KEY=smoke-token) ;;
    *) echo "FAIL unknown provider $p"; fail=1; continue ;;
  esac
  for role in student mentor; do
    : > "$dir/requests.log"
    if ! env "${penv[@]}" SMILE_PROVIDER="$p" SMILE_WORKDIR="$dir/work" SMILE_ADD_DIRS="$dir/tutorial" \
      SMILE_CLI_TIMEOUT="${SMOKE_TIMEOUT:-120s}" smile-wrapper check "$role" > "$dir/out" 2> "$dir/err"; then
      echo "FAIL $p $role: the pinned CLI refused the wrapper's command line"
      sed 's/^/     /' "$dir/err" "$dir/out"
      fail=1
      continue
    fi
    if grep -q '"skipped"' "$dir/out"; then
      echo "skip $p $role: $(sed -n 's/.*"skipped":"\([^"]*\)".*/\1/p' "$dir/out")"
      continue
    fi
    if [ ! -s "$dir/requests.log" ]; then
      echo "FAIL $p $role: the CLI never reached the provider API at $api"
      sed 's/^/     /' "$dir/out" "$dir/err"
      fail=1
      continue
    fi
    echo "ok   $p $role: command line accepted, reached the API ($(head -1 "$dir/requests.log"))"
  done
done
exit "$fail"
