#!/usr/bin/env bash
# `npm run package [-- --target TARGET]`: a production build and a per-platform .vsix in
# dist/onload-bench-<version>[-<target>].vsix. The Couchbase SDK stays outside the bundle because
# it loads a native binary, so each .vsix carries the binding of ONE platform
# (@couchbase/couchbase-<platform>-napi). npm installs only the running machine's binding: build
# each target on a machine of that platform (a CI matrix), or pre-install the binding with
#   npm install --no-save --force @couchbase/couchbase-<platform>-napi@<sdk version>
# Targets: linux-x64 (default), linux-arm64, alpine-x64, alpine-arm64, darwin-x64, darwin-arm64,
# win32-x64.
set -euo pipefail
cd "$(dirname "$0")/.."

target=linux-x64
while [ $# -gt 0 ]; do
  case "$1" in
    --target) target="$2"; shift 2 ;;
    --target=*) target="${1#--target=}"; shift ;;
    *) echo "package: unknown argument $1 (usage: scripts/package.sh [--target TARGET])" >&2; exit 2 ;;
  esac
done

case "$target" in
  linux-x64) binding=couchbase-linux-x64-napi ;;
  linux-arm64) binding=couchbase-linux-arm64-napi ;;
  alpine-x64) binding=couchbase-linuxmusl-x64-napi ;;
  alpine-arm64) binding=couchbase-linuxmusl-arm64-napi ;;
  darwin-x64) binding=couchbase-darwin-x64-napi ;;
  darwin-arm64) binding=couchbase-darwin-arm64-napi ;;
  win32-x64) binding=couchbase-win32-x64-napi ;;
  *) echo "package: no Couchbase SDK binding for target $target" >&2; exit 2 ;;
esac
sdk_version=$(node -p 'require("./node_modules/couchbase/package.json").version')
if [ ! -f "node_modules/@couchbase/$binding/package.json" ]; then
  echo "package: node_modules/@couchbase/$binding is not installed, so a $target .vsix would not load the SDK." >&2
  echo "  Package on a $target machine, or first: npm install --no-save --force @couchbase/$binding@$sdk_version" >&2
  exit 1
fi

version=$(node -p 'require("./package.json").version')
out="dist/onload-bench-$version.vsix"
[ "$target" = linux-x64 ] || out="dist/onload-bench-$version-$target.vsix"

rm -f dist/*.vsix
node scripts/build.mjs --production

# The checked-in .vscodeignore names the linux-x64 binding; other targets get a copy naming theirs.
ignore_file=.vscodeignore
if [ "$target" != linux-x64 ]; then
  ignore_file=$(mktemp --suffix=.vscodeignore)
  trap 'rm -f "$ignore_file"' EXIT
  sed "s#node_modules/@couchbase/couchbase-linux-x64-napi/#node_modules/@couchbase/$binding/#" .vscodeignore >"$ignore_file"
fi

# --no-rewrite-relative-links: the README's images ship inside the .vsix and resolve locally.
npx --no-install vsce package --no-update-package-json --target "$target" --ignoreFile "$ignore_file" \
  --out "$out" --allow-missing-repository --no-rewrite-relative-links

# Refuse a package that lacks the bundles or the SDK's native binding.
python3 - "$out" extension/dist/extension.js extension/dist/server.js extension/node_modules/couchbase/dist/couchbase.js \
  "extension/node_modules/@couchbase/$binding/" <<'PY' || exit 1
import sys, zipfile
names = zipfile.ZipFile(sys.argv[1]).namelist()
missing = [p for p in sys.argv[2:] if not any(n.startswith(p) for n in names)]
if missing:
    sys.exit(f"package: {sys.argv[1]} lacks {', '.join(missing)}")
PY

# On a machine of the target's platform, prove the packaged SDK loads its native binding.
host=$(node -p '`${process.platform}-${process.arch}`')
if [ "$target" = "$host" ]; then
  check_dir=$(mktemp -d)
  python3 -c 'import sys, zipfile; zipfile.ZipFile(sys.argv[1]).extractall(sys.argv[2])' "$out" "$check_dir"
  if ! node -e 'if (typeof require(process.argv[1]).connect !== "function") process.exit(1)' "$check_dir/extension/node_modules/couchbase"; then
    rm -rf "$check_dir"
    echo "package: the Couchbase SDK packaged in $out does not load" >&2
    exit 1
  fi
  rm -rf "$check_dir"
fi
echo "package: $out ($(du -h "$out" | cut -f1))"
