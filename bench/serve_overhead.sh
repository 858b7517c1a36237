#!/usr/bin/env bash
# Overhead of `crawl --serve` (a bench, not a test; docs/api.md): crawls of
# the served dev web alternating plain and --serve (with a poller doing what
# an open dashboard does: /api/status and /api/hosts once a second); prints
# pages/s, CPU ms a page and the crawl thread's CPU for each run.
#
# Usage: bench/serve_overhead.sh [N] [REPS]     (defaults 2000 pages, 3 runs each)
# Env:   CRAWL_ARGS (default: /work/webs/dev.args), TOPICRAWL, SEEDS, PORT (18431)
set -euo pipefail
cd "$(dirname "$0")/.."
N=${1:-2000}
REPS=${2:-3}
BIN=${TOPICRAWL:-build/topicrawl}
SEEDS=${SEEDS:-../shared/corpus/homes/dev-homes.tsv}
CRAWL_ARGS=${CRAWL_ARGS:-$(cat /work/webs/dev.args)}
PORT=${PORT:-18431}
TMP=$(mktemp -d /tmp/serve_overhead.XXXXXX)
trap 'rm -rf "$TMP"' EXIT
for rep in $(seq 1 "$REPS"); do
  for mode in plain serve; do
    out=$TMP/$mode-$rep
    extra=()
    poller=""
    if [ "$mode" = serve ]; then
      extra=(--serve "127.0.0.1:$PORT")
      (while sleep 1; do
        curl -s "127.0.0.1:$PORT/api/status" >/dev/null || true
        curl -s "127.0.0.1:$PORT/api/hosts?limit=20" >/dev/null || true
      done) &
      poller=$!
    fi
    # shellcheck disable=SC2086
    /usr/bin/time -f "%e %U %S" -o "$out.time" "$BIN" crawl --seeds "$SEEDS" --strategy bfs \
      --delay 0 --max-pages "$N" $CRAWL_ARGS --out "$out" "${extra[@]}" > "$out.stdout" 2> "$out.log"
    [ -n "$poller" ] && kill "$poller"
    read -r wall user sys < "$out.time"
    ok=$(grep -o '[0-9]* pages ok' "$out.stdout" | head -1 | cut -d' ' -f1)
    rate=$(grep -o '[0-9.]* pages/s ->' "$out.stdout" | cut -d' ' -f1)
    thread=$(grep -o 'cpu by thread: .*' "$out.log" || true)
    awk -v m="$mode" -v r="$rep" -v ok="$ok" -v u="$user" -v s="$sys" -v w="$wall" -v rate="$rate" \
      -v th="$thread" 'BEGIN { printf "%-5s run %d: %d pages ok, %.1f pages/s, wall %.1f s, CPU %.3f ms/page | %s\n", m, r, ok, rate, w, 1000 * (u + s) / ok, th }'
    rm -rf "$out"
  done
done
