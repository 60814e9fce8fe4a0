#!/usr/bin/env bash
# Builds (once) and caches the lab hosts' root filesystem: a Debian 12 (bookworm) made by
# debootstrap from Debian's own packages, booted by test/lab with the real systemd
# (systemd-nspawn --boot) as read-only lower layer of every lab host.
#   bash scripts/lab-root.sh            build when missing; prints LAB_ROOT=<folder>
#   . scripts/lab-root.sh               the same, and exports LAB_ROOT
# Cache: ${ONLOAD_BENCH_CACHE:-$HOME/.cache/onload-bench}/lab-root/<key>/root, where the key names
# the release and a hash of the package list and of the customisation below: change either and a
# new root is built beside the old one. Serialised with a lock; prints nothing when cached.
# Mirror: $ONLOAD_BENCH_DEBIAN_MIRROR (default http://deb.debian.org/debian). Needs root.
# The debootstrap step retries once after a failure (retry.sh); both attempts' output is
# kept in <key>/debootstrap.log.attempt<N> and printed when the second one fails too.
#
# What is in it, and why (everything per run, such as host keys, sudoers, the Couchbase unit and
# the stand-ins, is written into each host's own overlay by test/lab/hostFiles.ts):
#   systemd, systemd-sysv, dbus      the real init, systemctl, daemon-reload, drop-ins (REAL-LAB C12, H4)
#   openssh-server                   the real sshd (host keys removed here: made per run)
#   sudo                             the real sudo and sudoers (REAL-LAB H2, O5)
#   iproute2, ethtool, procps        ip, ss, ethtool -i, ps/pgrep on the hosts (environment facts)
#   curl                             REST calls from a client host in the lab's own tests
#   python3-minimal                  a current distribution's python3 (REAL-LAB Y4: bin/ycsb is Python 2 only)
#   openjdk-17-jre-headless          Java for the real YCSB on client hosts
#   users: bench (uid 1000, 0700 home: the SSH user), couchbase (system user, home /opt/couchbase)
[ "${BASH_SOURCE[0]}" != "$0" ] || set -euo pipefail
# shellcheck source=retry.sh
. "$(dirname "${BASH_SOURCE[0]}")/retry.sh"

LAB_RELEASE=bookworm
LAB_PACKAGES=systemd,systemd-sysv,dbus,openssh-server,sudo,iproute2,ethtool,procps,curl,python3-minimal,openjdk-17-jre-headless
LAB_ROOT_REVISION=1 # bump when customise_root changes
LAB_CACHE_DIR="${ONLOAD_BENCH_CACHE:-$HOME/.cache/onload-bench}"
LAB_MIRROR="${ONLOAD_BENCH_DEBIAN_MIRROR:-http://deb.debian.org/debian}"

customise_root() { # customise_root ROOT: runs inside the new root with chroot
  local root="$1"
  chroot "$root" /bin/sh -eu <<'EOF'
# the SSH user, with a 0700 home as useradd makes on RHEL (no other user, such as couchbase, enters it)
useradd --create-home --home-dir /home/bench --shell /bin/bash --uid 1000 --user-group bench
chmod 0700 /home/bench
# the service user of the Couchbase packages (system user, home = the installation)
groupadd --system couchbase
useradd --system --gid couchbase --home-dir /opt/couchbase --no-create-home --shell /bin/sh couchbase
# host keys are made per run and pinned in the lab's known_hosts
rm -f /etc/ssh/ssh_host_*
# no package lists or downloaded packages in the cached root
apt-get clean
rm -rf /var/lib/apt/lists/* /var/cache/apt/*.bin
# units a lab host never needs (timers that wake the 2-core test machine, console login)
systemctl mask apt-daily.timer apt-daily-upgrade.timer e2scrub_all.timer fstrim.timer systemd-timesyncd.service console-getty.service getty@.service >/dev/null 2>&1 || true
EOF
}

lab_root_key() {
  local hash
  hash=$(printf '%s\n%s\n%s\n' "$LAB_PACKAGES" "$LAB_ROOT_REVISION" "$(declare -f customise_root)" | sha256sum | cut -c1-12)
  echo "$LAB_RELEASE-$hash"
}

build_lab_root() {
  local key dir tmp
  command -v debootstrap >/dev/null 2>&1 || { echo "lab-root: debootstrap is missing (scripts/setup-system.sh installs it)" >&2; return 1; }
  key=$(lab_root_key)
  dir="$LAB_CACHE_DIR/lab-root/$key"
  LAB_ROOT="$dir/root"
  [ -f "$dir/.complete" ] && return 0
  mkdir -p "$LAB_CACHE_DIR/lab-root" || return 1
  (
    flock 9
    [ -f "$dir/.complete" ] && exit 0
    mkdir -p "$dir"
    tmp="$dir/root.tmp"
    echo "lab-root: building the lab hosts' Debian $LAB_RELEASE root in $dir (about a minute)" >&2
    started=$(date +%s)
    rm -rf "$tmp"
    retry_install "lab-root: debootstrap" "$dir/debootstrap.log" --before rm -rf "$tmp" -- \
      debootstrap --variant=minbase --include="$LAB_PACKAGES" "$LAB_RELEASE" "$tmp" "$LAB_MIRROR" \
      || { rm -rf "$tmp"; exit 1; }
    customise_root "$tmp" >"$dir/customise.log" 2>&1 || { echo "lab-root: customising the root failed:" >&2; cat "$dir/customise.log" >&2; exit 1; }
    rm -rf "$LAB_ROOT" && mv "$tmp" "$LAB_ROOT" || exit 1
    echo "$(( $(date +%s) - started ))" >"$dir/build-seconds"
    touch "$dir/.complete"
    echo "lab-root: done in $(cat "$dir/build-seconds") s ($(du -sh "$LAB_ROOT" | cut -f1))" >&2
  ) 9>"$LAB_CACHE_DIR/lab-root/.lock" || return 1
}

if [ "${BASH_SOURCE[0]}" = "$0" ]; then
  build_lab_root
  echo "LAB_ROOT=$LAB_ROOT"
else
  build_lab_root && export LAB_ROOT
fi
