# Sourced by scripts/setup, scripts/build, scripts/main and scripts/test:
# run a step with its output kept in a log file, print one line for it, and
# show the log only when the step fails.
#
#   quiet_init LOGFILE         start (truncate) the log
#   quiet_step "what" cmd ...  run cmd >>LOG 2>&1; print "<prefix>: what ... ok"
#                              or the log's tail and return cmd's status
# QUIET_PREFIX names the caller in each line (default: the script's name).
# VERBOSE=1 streams every command's output instead (the log is still written).

quiet_init() {
  QUIET_LOG=$1
  mkdir -p "$(dirname "$QUIET_LOG")"
  : >"$QUIET_LOG"
}

# Prints the part of the log that explains a failure: from the first line a
# compiler, ninja or apt marks as an error, else the last 60 lines.
quiet_show_failure() {
  local first
  first=$(grep -n -m1 -E '^(FAILED:|E: |CMake Error)|error:' "$QUIET_LOG" | cut -d: -f1 || true)
  if [ -n "$first" ]; then
    tail -n "+$first" "$QUIET_LOG" | head -n 200 >&2
  else
    tail -n 60 "$QUIET_LOG" >&2
  fi
  echo "${QUIET_PREFIX:-$(basename "$0")}: full output in $QUIET_LOG" >&2
}

quiet_step() {
  local what=$1 status=0
  shift
  printf '%s: %s ... ' "${QUIET_PREFIX:-$(basename "$0")}" "$what" >&2
  echo "== $what: $*" >>"$QUIET_LOG"
  if [ "${VERBOSE:-0}" = 1 ]; then
    echo >&2
    "$@" 2>&1 | tee -a "$QUIET_LOG" >&2 || status=${PIPESTATUS[0]}
  else
    "$@" >>"$QUIET_LOG" 2>&1 || status=$?
  fi
  if [ "$status" = 0 ]; then
    echo ok >&2
  else
    echo "FAILED (exit $status)" >&2
    quiet_show_failure
  fi
  return "$status"
}
