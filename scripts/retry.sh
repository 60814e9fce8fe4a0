# Sourced by the scripts that install test tools, so that one transient failure (a registry that
# drops a connection, a mirror that answers 503 once) never turns CI red and no failure leaves an
# empty log. Two forms:
#
# scripts/ycsb-release.sh: `retry_once LABEL LOG COMMAND...` runs an install step with its
# output in LOG and, if it fails, keeps that output as LOG.attempt1, says so and runs it once more
# (a registry that drops a connection, a mirror that answers 503 once). Only the second failure
# fails the step; both attempts' output stay on disk for whoever reads the failure.
retry_once() {
  local label="$1" log="$2"
  shift 2
  mkdir -p "$(dirname "$log")" || return 1
  rm -f "$log.attempt1"
  local code=0
  "$@" >"$log" 2>&1 && return 0 || code=$?
  mv "$log" "$log.attempt1"
  echo "$label: failed (exit $code), trying once more; the failed attempt's output is in $log.attempt1:" >&2
  tail -n 15 "$log.attempt1" | sed 's/^/  | /' >&2
  sleep "${RETRY_PAUSE_SEC:-3}"
  "$@" >"$log" 2>&1 && { echo "$label: the second attempt worked" >&2; return 0; } || code=$?
  echo "$label: failed again (exit $code); output of both attempts: $log.attempt1, $log" >&2
  tail -n 15 "$log" | sed 's/^/  | /' >&2
  return "$code"
}

# scripts/tools.sh (Node 24, code-server) and scripts/lab-root.sh (the lab hosts' root filesystem):
#   retry_install LABEL LOG [--before CMD ARGS... ] -- COMMAND ARGS...
#     runs COMMAND (output to LOG.attempt1); on failure waits, runs CMD (e.g. removing a half
#     install) when given, and runs COMMAND again (LOG.attempt2). Returns COMMAND's last status;
#     when both fail, both attempts' output is printed. CMD and COMMAND are argument lists, run as
#     they are: nothing is evaluated as shell text, so a path with a quote in it stays a path.
retry_install() {
  local label="$1" log="$2" attempt status=0
  local before=()
  shift 2
  if [ "${1:-}" = --before ]; then
    shift
    while [ $# -gt 0 ] && [ "$1" != -- ]; do before+=("$1"); shift; done
  fi
  [ "${1:-}" = -- ] && shift
  rm -f "$log".attempt*
  for attempt in 1 2; do
    status=0
    "$@" >"$log.attempt$attempt" 2>&1 || status=$?
    [ "$status" -eq 0 ] && return 0
    if [ "$attempt" -eq 1 ]; then
      echo "$label: attempt 1 failed (exit $status), trying again; its output is kept in $log.attempt1" >&2
      sleep "${ONLOAD_BENCH_RETRY_PAUSE:-5}"
      [ ${#before[@]} -gt 0 ] && "${before[@]}"
    fi
  done
  echo "$label: failed twice (exit $status). Output of both attempts:" >&2
  for attempt in 1 2; do
    echo "--- $log.attempt$attempt (last 30 lines)" >&2
    tail -n 30 "$log.attempt$attempt" >&2
  done
  return "$status"
}
