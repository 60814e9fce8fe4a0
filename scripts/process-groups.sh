# Sourced by e2e.sh and start.sh: runs a Node entry in the background and, on any exit, stops it
# and kills every process group it registered (one empty file per group id in
# $ONLOAD_BENCH_PGID_DIR: code-server instances live in groups of their own).
export ONLOAD_BENCH_PGID_DIR
ONLOAD_BENCH_PGID_DIR=$(mktemp -d)
runner_pid=
cleanup() {
  [ -n "$runner_pid" ] && kill -TERM "$runner_pid" 2>/dev/null && wait "$runner_pid" 2>/dev/null
  for file in "$ONLOAD_BENCH_PGID_DIR"/*; do
    [ -e "$file" ] && kill -KILL -- "-$(basename "$file")" 2>/dev/null
  done
  rm -rf "$ONLOAD_BENCH_PGID_DIR"
}
trap cleanup EXIT
trap 'exit 130' INT TERM

# run_foreground ARGS...: runs `node --import tsx ARGS` so that the traps above still fire; exits with its status.
run_foreground() {
  node --import tsx "$@" &
  runner_pid=$!
  wait "$runner_pid"
  local status=$?
  runner_pid=
  exit $status
}
