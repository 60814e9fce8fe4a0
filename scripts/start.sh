#!/usr/bin/env bash
# `npm start`: builds and packages the extension, installs it into code-server, starts the
# loopback lab, writes its plan into examples/lab/ (a SIMULATED LAB) and opens VS Code in the
# browser on examples/ at a printed local URL. Stays in the foreground; Ctrl+C cleans up.
# ONLOAD_BENCH_PORT picks the port (default 8080, or a free one when 8080 is taken).
set -uo pipefail
cd "$(dirname "$0")/.."

[ -d node_modules ] || npm ci || exit 1
SKIP_E2E=0 bash scripts/setup-system.sh || { echo "npm start: could not install system packages (needs root)" >&2; exit 1; }
# shellcheck source=tools.sh
. scripts/tools.sh || exit 1
# the real YCSB 0.17.0 the lab's client hosts run (cached)
bash scripts/ycsb-release.sh || { echo "npm start: could not assemble YCSB 0.17.0 (see above)" >&2; exit 1; }
echo "npm start: building and packaging the extension..."
mkdir -p test-artifacts
bash scripts/package.sh >test-artifacts/start-package.log 2>&1 || { cat test-artifacts/start-package.log >&2; exit 1; }
vsix=$(ls -t dist/onload-bench-*.vsix | head -1)

# shellcheck source=process-groups.sh
. scripts/process-groups.sh

run_foreground test/e2e/start.ts "$vsix"
