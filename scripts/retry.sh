# Sourced by scripts/ycsb-release.sh: `retry_once LABEL LOG COMMAND...` runs an install step with its
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
