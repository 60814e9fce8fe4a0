#!/usr/bin/env bash
# Installs the Debian packages the tests need (real OpenSSH for the loopback lab, Neovim as a real
# third-party LSP client, Chromium for the real-editor tests; Java 17 to run the real YCSB on the
# lab's client hosts, and a JDK and Maven to assemble it: scripts/ycsb-release.sh), only when they
# are missing. Needs root, as on the project's machines. apt is retried once (scripts/retry.sh).
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
# shellcheck source=retry.sh
. "$here/retry.sh"
need=()
command -v sshd >/dev/null 2>&1 || [ -x /usr/sbin/sshd ] || need+=(openssh-server)
command -v ssh >/dev/null 2>&1 || need+=(openssh-client)
command -v nvim >/dev/null 2>&1 || need+=(neovim)
dpkg -s openjdk-17-jre-headless >/dev/null 2>&1 || need+=(openjdk-17-jre-headless)
command -v javac >/dev/null 2>&1 || need+=(openjdk-17-jdk-headless)
command -v mvn >/dev/null 2>&1 || need+=(maven)
if [ "${SKIP_E2E:-0}" != 1 ]; then
  command -v chromium >/dev/null 2>&1 || need+=(chromium)
  dpkg -s libkrb5-dev >/dev/null 2>&1 || need+=(libkrb5-dev)
fi
if [ ${#need[@]} -gt 0 ]; then
  echo "setup: installing ${need[*]}"
  export DEBIAN_FRONTEND=noninteractive
  logs="${ONLOAD_BENCH_CACHE:-$HOME/.cache/onload-bench}/logs"
  retry_once "setup: apt-get update" "$logs/apt-update.log" apt-get update -qq
  retry_once "setup: apt-get install" "$logs/apt-install.log" apt-get install -y -qq --no-install-recommends "${need[@]}"
fi
