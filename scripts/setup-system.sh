#!/usr/bin/env bash
# Installs the Debian packages the tests need (real OpenSSH for the loopback lab, Neovim as a real
# third-party LSP client, Chromium for the real-editor tests), only when they are missing. Needs
# root, as on the project's machines.
set -euo pipefail
need=()
command -v sshd >/dev/null 2>&1 || [ -x /usr/sbin/sshd ] || need+=(openssh-server)
command -v ssh >/dev/null 2>&1 || need+=(openssh-client)
command -v nvim >/dev/null 2>&1 || need+=(neovim)
if [ "${SKIP_E2E:-0}" != 1 ]; then
  command -v chromium >/dev/null 2>&1 || need+=(chromium)
  dpkg -s libkrb5-dev >/dev/null 2>&1 || need+=(libkrb5-dev)
fi
if [ ${#need[@]} -gt 0 ]; then
  echo "setup: installing ${need[*]}"
  export DEBIAN_FRONTEND=noninteractive
  apt-get update -qq
  apt-get install -y -qq --no-install-recommends "${need[@]}" >/dev/null
fi
