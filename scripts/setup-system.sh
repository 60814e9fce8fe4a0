#!/usr/bin/env bash
# Installs the Debian packages the tests need (the lab's hosts: systemd-nspawn from
# systemd-container and debootstrap for their root filesystem, test/lab and scripts/lab-root.sh; the
# OpenSSH client; Neovim as a real third-party LSP client; Chromium for the real-editor tests),
# only when they are missing. Needs root, as on the project's machines.
set -euo pipefail
need=()
command -v ssh >/dev/null 2>&1 || need+=(openssh-client)
command -v nvim >/dev/null 2>&1 || need+=(neovim)
command -v systemd-nspawn >/dev/null 2>&1 || need+=(systemd-container)
command -v debootstrap >/dev/null 2>&1 || [ -x /usr/sbin/debootstrap ] || need+=(debootstrap)
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
