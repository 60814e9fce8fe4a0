#!/usr/bin/env bash
# Installs the Debian packages the tests need (real OpenSSH for the loopback lab; Neovim, Emacs
# with eglot and lsp-mode, and Vim with ALE as real third-party LSP clients; Chromium for the
# real-editor tests; Java 17 to run the real YCSB on the lab's client hosts, and a JDK and Maven to
# assemble it: scripts/ycsb-release.sh), only when they are missing. Needs root, as on the project's machines.
# apt-get's output goes to test-artifacts/setup-apt.log; a failed apt-get (a mirror or the dpkg
# lock, for a moment) is tried once more, and its output is printed when it fails again.
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
log="$root/test-artifacts/setup-apt.log"
need=()
command -v sshd >/dev/null 2>&1 || [ -x /usr/sbin/sshd ] || need+=(openssh-server)
command -v ssh >/dev/null 2>&1 || need+=(openssh-client)
command -v nvim >/dev/null 2>&1 || need+=(neovim)
dpkg -s openjdk-17-jre-headless >/dev/null 2>&1 || need+=(openjdk-17-jre-headless)
command -v javac >/dev/null 2>&1 || need+=(openjdk-17-jdk-headless)
command -v mvn >/dev/null 2>&1 || need+=(maven)
command -v emacs >/dev/null 2>&1 || need+=(emacs-nox)
dpkg -s elpa-eglot >/dev/null 2>&1 || need+=(elpa-eglot)
dpkg -s elpa-lsp-mode >/dev/null 2>&1 || need+=(elpa-lsp-mode)
# ALE needs a Vim with jobs and timers (vim-nox; Debian's vim.tiny has neither).
vim --version 2>/dev/null | grep -q '+job' || need+=(vim-nox)
dpkg -s vim-ale >/dev/null 2>&1 || need+=(vim-ale)
if [ "${SKIP_E2E:-0}" != 1 ]; then
  command -v chromium >/dev/null 2>&1 || need+=(chromium)
  dpkg -s libkrb5-dev >/dev/null 2>&1 || need+=(libkrb5-dev)
fi

# apt-get ARGS..., its output appended to the log; once more after a failure.
apt_get() {
  if apt-get "$@" >>"$log" 2>&1; then return 0; fi
  echo "setup: apt-get $1 failed; trying once more (output in $log)" >&2
  sleep 10
  if apt-get "$@" >>"$log" 2>&1; then return 0; fi
  echo "setup: apt-get $1 failed again; the end of its output:" >&2
  tail -n 40 "$log" >&2
  return 1
}

if [ ${#need[@]} -gt 0 ]; then
  echo "setup: installing ${need[*]}"
  mkdir -p "$(dirname "$log")"
  export DEBIAN_FRONTEND=noninteractive
  apt_get update -qq
  apt_get install -y -qq --no-install-recommends "${need[@]}"
fi
