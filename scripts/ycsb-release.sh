#!/usr/bin/env bash
# Assembles the real YCSB 0.17.0 with its couchbase2 binding, laid out as the release tarball is,
# for the loopback lab's client hosts (test/lab), once, in the tools cache:
#   ${ONLOAD_BENCH_CACHE:-$HOME/.cache/onload-bench}/ycsb-0.17.0/
#     LICENSE.txt NOTICE.txt bin/{ycsb,ycsb.sh,bindings.properties} workloads/
#     lib/core-0.17.0.jar + core's dependency jars
#     couchbase2-binding/lib/couchbase2-binding-0.17.0.jar + java-client, core-io, rxjava
# Why: the engine must be tested against the YCSB a lab really runs, not against the project's
# idea of it. The release tarball cannot be fetched here, so it is rebuilt from its parts:
# bin/, workloads/, the licence and the binding's source from ../shared/ycsb/upstream-0.17.0 (the
# release's files, unchanged), the jars from Maven Central through Maven, and the binding (never
# published) compiled with javac for Java 8 as the release was.
# Every input is checked against scripts/ycsb-0.17.0.sha256 before it is used, and every file of
# the result against the folder's own manifest on each call, so a warm cache costs a checksum pass
# and prints nothing. The folder is made read-only: nothing writes into a YCSB home, and the lab can
# share or bind-mount it into client hosts as it is. Each download or build step is retried once
# (scripts/retry.sh), its output kept under the cache's logs/.
# Beside it, not in it: ycsb-0.17.0-extras/jaxb-api-2.3.1.jar, what a lab user adds on Java 11+ for
# YCSB's HDR interval logs (HdrHistogram 2.1.4 needs javax.xml.bind; engine/src/ycsb/ycsbHdrSupport.ts).
# Usage: scripts/ycsb-release.sh [--print-home]   (needs java, javac, jar, mvn: scripts/setup-system.sh)
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
# shellcheck source=retry.sh
. "$here/retry.sh"

VERSION=0.17.0
CACHE_DIR="${ONLOAD_BENCH_CACHE:-$HOME/.cache/onload-bench}"
HOME_DIR="$CACHE_DIR/ycsb-$VERSION"
EXTRAS_DIR="$CACHE_DIR/ycsb-$VERSION-extras"
SHARED_DIR="${ONLOAD_BENCH_SHARED:-$here/../../shared}"
UPSTREAM="$SHARED_DIR/ycsb/upstream-$VERSION"
PINS="$here/ycsb-$VERSION.sha256"
LOGS="$CACHE_DIR/logs/ycsb-$VERSION"
BINDING_SOURCE=couchbase2/src/main/java/site/ycsb/db/couchbase2

# Maven coordinates of the release's jars and where the release puts each (README of the shared folder).
ARTIFACTS=(
  "site.ycsb:core:$VERSION lib"
  "org.hdrhistogram:HdrHistogram:2.1.4 lib"
  "org.apache.htrace:htrace-core4:4.1.0-incubating lib"
  "org.codehaus.jackson:jackson-core-asl:1.9.4 lib"
  "org.codehaus.jackson:jackson-mapper-asl:1.9.4 lib"
  "com.couchbase.client:java-client:2.3.1 couchbase2-binding/lib"
  "com.couchbase.client:core-io:1.3.1 couchbase2-binding/lib"
  "io.reactivex:rxjava:1.1.5 couchbase2-binding/lib"
)

die() { echo "ycsb-release: $*" >&2; exit 1; }

# The pinned sums of one section of the pins file ("shared" or "maven"), in sha256sum's format.
pins() { awk -v want="# $1" '/^# / { on = index($0, want) == 1; next } on && NF == 2' "$PINS"; }

# The stamp a complete home carries: what it was built from (pins and binding source).
stamp() { cat "$PINS" "$UPSTREAM/$BINDING_SOURCE"/*.java | sha256sum | cut -d' ' -f1; }

warm() {
  [ -f "$HOME_DIR/.complete" ] && [ "$(cat "$HOME_DIR/.complete")" = "$(stamp)" ] \
    && (cd "$HOME_DIR" && sha256sum --quiet --strict -c .manifest.sha256 >/dev/null 2>&1) \
    && (cd "$EXTRAS_DIR" 2>/dev/null && pins extras | sha256sum --quiet --strict -c - >/dev/null 2>&1)
}

fetch_extras() { # the JAXB API jar, checked against its pin
  rm -rf "$EXTRAS_DIR.tmp" && mkdir -p "$EXTRAS_DIR.tmp" \
    && mvn -B -C -ntp -Dstyle.color=never -Dmaven.repo.local="$CACHE_DIR/m2" dependency:copy \
      -Dartifact=javax.xml.bind:jaxb-api:2.3.1 -DoutputDirectory="$EXTRAS_DIR.tmp" \
    && (cd "$EXTRAS_DIR.tmp" && pins extras | sha256sum --strict -c -) \
    || { rm -rf "$CACHE_DIR/m2/javax/xml/bind"; return 1; }
}

fetch_jars() { # fetch_jars DIR: every artifact into DIR/<its release folder>, through Maven
  local dir="$1" items="" coordinate folder group artifact version
  for entry in "${ARTIFACTS[@]}"; do
    read -r coordinate folder <<<"$entry"
    IFS=: read -r group artifact version <<<"$coordinate"
    items+="<artifactItem><groupId>$group</groupId><artifactId>$artifact</artifactId><version>$version</version><outputDirectory>$dir/$folder</outputDirectory></artifactItem>"
  done
  cat >"$dir/fetch-pom.xml" <<EOF
<project xmlns="http://maven.apache.org/POM/4.0.0">
  <modelVersion>4.0.0</modelVersion>
  <groupId>local.onload-bench</groupId><artifactId>ycsb-$VERSION-jars</artifactId><version>1</version>
  <packaging>pom</packaging>
  <build><plugins><plugin>
    <groupId>org.apache.maven.plugins</groupId><artifactId>maven-dependency-plugin</artifactId><version>3.6.1</version>
    <executions><execution><id>copy</id><phase>validate</phase><goals><goal>copy</goal></goals>
      <configuration><artifactItems>$items</artifactItems></configuration>
    </execution></executions>
  </plugin></plugins></build>
</project>
EOF
  # -C: Maven checks each download against the repository's own checksum; then ours below
  mvn -B -C -ntp -Dstyle.color=never -Dmaven.repo.local="$CACHE_DIR/m2" -f "$dir/fetch-pom.xml" validate
}

check_jars() { # check_jars DIR: the fetched jars are exactly the pinned ones; a bad one is dropped from Maven's cache
  local dir="$1"
  if ! (cd "$dir" && pins maven | sha256sum --strict -c -); then
    rm -rf "$CACHE_DIR/m2/site/ycsb" "$CACHE_DIR/m2/org/hdrhistogram" "$CACHE_DIR/m2/org/apache/htrace" \
      "$CACHE_DIR/m2/org/codehaus/jackson" "$CACHE_DIR/m2/com/couchbase" "$CACHE_DIR/m2/io/reactivex"
    return 1
  fi
}

fetch_and_check_jars() { fetch_jars "$1" && check_jars "$1"; }

# (steps run under retry_once's "if", where set -e does not apply: each chains with &&)
compile_binding() { # compile_binding DIR: couchbase2-binding-VERSION.jar from the shared source
  local dir="$1" classes="$1/binding-classes"
  rm -rf "$classes" && mkdir -p "$classes" \
    && javac --release 8 -nowarn -Xlint:-options -encoding UTF-8 -d "$classes" \
      -cp "$dir/lib/*:$dir/couchbase2-binding/lib/*" "$UPSTREAM/$BINDING_SOURCE"/*.java \
    && jar --create --file "$dir/couchbase2-binding/lib/couchbase2-binding-$VERSION.jar" -C "$classes" . \
    && rm -rf "$classes"
}

assemble() {
  for tool in java javac jar mvn sha256sum flock; do
    command -v "$tool" >/dev/null 2>&1 || die "$tool is missing: run scripts/setup-system.sh (Debian's openjdk-17-jre-headless, openjdk-17-jdk-headless, maven)"
  done
  [ -d "$UPSTREAM" ] || die "$UPSTREAM not found (the shared folder's YCSB $VERSION files)"
  (cd "$UPSTREAM" && pins shared | sha256sum --quiet --strict -c -) \
    || die "$UPSTREAM differs from YCSB $VERSION as released (scripts/ycsb-$VERSION.sha256)"
  echo "ycsb-release: assembling YCSB $VERSION into $HOME_DIR (logs in $LOGS)"
  local tmp="$HOME_DIR.tmp"
  chmod -R u+w "$tmp" 2>/dev/null || true
  rm -rf "$tmp" && mkdir -p "$tmp/bin" "$tmp/workloads" "$tmp/lib" "$tmp/couchbase2-binding/lib"
  cp "$UPSTREAM/LICENSE.txt" "$UPSTREAM/NOTICE.txt" "$tmp/"
  cp "$UPSTREAM/bin/ycsb" "$UPSTREAM/bin/ycsb.sh" "$UPSTREAM/bin/bindings.properties" "$tmp/bin/"
  chmod 755 "$tmp/bin/ycsb" "$tmp/bin/ycsb.sh"
  cp "$UPSTREAM/workloads/"* "$tmp/workloads/"
  # a failed check drops the bad jars from Maven's cache, so the retry downloads them again
  retry_once "ycsb-release: jars from Maven Central" "$LOGS/fetch.log" fetch_and_check_jars "$tmp"
  rm -f "$tmp/fetch-pom.xml"
  retry_once "ycsb-release: compiling the couchbase2 binding" "$LOGS/compile.log" compile_binding "$tmp"
  (cd "$tmp" && find . -type f ! -name '.manifest.sha256' ! -name '.complete' -printf '%P\n' | LC_ALL=C sort | xargs -d '\n' sha256sum >.manifest.sha256)
  stamp >"$tmp/.complete"
  chmod -R a-w "$tmp"
  if [ -e "$HOME_DIR" ]; then chmod -R u+w "$HOME_DIR" && rm -rf "$HOME_DIR"; fi
  mv "$tmp" "$HOME_DIR"
  retry_once "ycsb-release: the JAXB API jar (lab extra)" "$LOGS/extras.log" fetch_extras
  rm -rf "$EXTRAS_DIR" && mv "$EXTRAS_DIR.tmp" "$EXTRAS_DIR"
  echo "ycsb-release: YCSB $VERSION ready in $HOME_DIR"
}

mkdir -p "$CACHE_DIR"
(
  flock 9
  warm || assemble
) 9>"$CACHE_DIR/.ycsb-$VERSION.lock"
if [ "${1:-}" = --print-home ]; then echo "$HOME_DIR"; fi
