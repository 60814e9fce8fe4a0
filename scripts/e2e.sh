#!/usr/bin/env bash
# Real-editor tests (called by scripts/test-all.sh): installs/reuses Node 24 and code-server,
# packages the .vsix, then test/e2e/run.ts starts the loopback lab and code-server, runs the
# extension-host integration suites and the Chromium UI tests, and writes
# test-artifacts/results/e2e.json = {"passed":N,"failed":N,"skipped":N}. Screenshots and logs stay
# in test-artifacts/e2e/. Whatever happens, every process it started is stopped.
set -uo pipefail
cd "$(dirname "$0")/.."
rm -rf test-artifacts/e2e && mkdir -p test-artifacts/results test-artifacts/e2e

fail() {
  echo "e2e: $*" >&2
  echo '{"passed":0,"failed":1,"skipped":0}' >test-artifacts/results/e2e.json
  exit 1
}

# shellcheck source=process-groups.sh
. scripts/process-groups.sh

bash scripts/setup-system.sh || fail "could not install chromium / libkrb5-dev (needs root)"
# shellcheck source=tools.sh
. scripts/tools.sh || fail "could not install Node 24 / code-server (see above)"
bash scripts/package.sh >test-artifacts/e2e/package.log 2>&1 || { cat test-artifacts/e2e/package.log >&2; fail "packaging failed"; }
vsix=$(ls -t dist/onload-bench-*.vsix 2>/dev/null | head -1)
[ -n "$vsix" ] || fail "scripts/package.sh made no .vsix"

run_foreground test/e2e/run.ts "$vsix"
