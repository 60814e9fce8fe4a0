# Sourced by the scripts that install test tools (tools.sh: Node 24 and code-server; lab-root.sh:
# the lab hosts' root filesystem; and any later installer, such as Maven artifacts). A registry
# or mirror that fails once must not turn CI red (issue 19), and a failure must never leave an
# empty log: each attempt's whole output is kept in LOG.attempt<N>, and when the second attempt
# fails too both are printed.
#
#   retry_install LABEL LOG [--before CMD] -- COMMAND ARGS...
#     runs COMMAND (output to LOG.attempt1); on failure waits 5 s, runs CMD (e.g. removing a half
#     install) when given, and runs COMMAND again (LOG.attempt2). Returns COMMAND's last status.
retry_install() {
  local label="$1" log="$2" before="" attempt status=0
  shift 2
  if [ "${1:-}" = --before ]; then before="$2"; shift 2; fi
  [ "${1:-}" = -- ] && shift
  rm -f "$log".attempt*
  for attempt in 1 2; do
    status=0
    "$@" >"$log.attempt$attempt" 2>&1 || status=$?
    [ "$status" -eq 0 ] && return 0
    if [ "$attempt" -eq 1 ]; then
      echo "$label: attempt 1 failed (exit $status), trying again; its output is kept in $log.attempt1" >&2
      sleep "${ONLOAD_BENCH_RETRY_PAUSE:-5}"
      [ -n "$before" ] && eval "$before"
    fi
  done
  echo "$label: failed twice (exit $status). Output of both attempts:" >&2
  for attempt in 1 2; do
    echo "--- $log.attempt$attempt (last 30 lines)" >&2
    tail -n 30 "$log.attempt$attempt" >&2
  done
  return "$status"
}
