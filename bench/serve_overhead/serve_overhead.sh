#!/usr/bin/env bash
# Overhead of `crawl --serve` (a bench, not a test; docs/guides/api.md): crawls of
# the served dev web alternating plain and --serve (with a poller doing what
# an open dashboard does: /api/status and /api/hosts once a second); prints
# pages/s, CPU ms a page and the crawl thread's CPU for each run, then per
# mode the mean +- sd of CPU ms a page (user+sys of the crawler process: the
# primary figure on a shared machine) and of pages/s, and the overhead of
# --serve on both. Run it under `flock /work/heavy.lock` on a shared machine.
#
# Usage: bench/serve_overhead/serve_overhead.sh [N] [REPS]     (defaults 2000 pages, 3 runs each)
# Env:   CRAWL_ARGS (default: /work/webs/dev.args), TOPICRAWL, SEEDS, PORT (18431)
set -euo pipefail
cd "$(dirname "$0")/../.."
N=${1:-2000}
REPS=${2:-3}
BIN=${TOPICRAWL:-build/topicrawl}
SEEDS=${SEEDS:-../shared/corpus/homes/dev-homes.tsv}
CRAWL_ARGS=${CRAWL_ARGS:-$(cat /work/webs/dev.args)}
PORT=${PORT:-18431}
TMP=$(mktemp -d /tmp/serve_overhead.XXXXXX)
trap 'rm -rf "$TMP"' EXIT
: > "$TMP/runs.tsv"
for rep in $(seq 1 "$REPS"); do
  # ABBA order: a drift of the machine's load does not favour one mode.
  modes="plain serve"
  [ $((rep % 2)) = 0 ] && modes="serve plain"
  for mode in $modes; do
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
    awk -v m="$mode" -v ok="$ok" -v u="$user" -v s="$sys" -v rate="$rate" \
      'BEGIN { printf "%s\t%.6f\t%.3f\n", m, 1000 * (u + s) / ok, rate }' >> "$TMP/runs.tsv"
    rm -rf "$out"
  done
done
awk -F'\t' '
  { n[$1]++; c[$1] += $2; c2[$1] += $2 * $2; r[$1] += $3; r2[$1] += $3 * $3 }
  function sd(s, s2, k) { return k > 1 ? sqrt((s2 - s * s / k) / (k - 1)) : 0 }
  END {
    for (m in n) {
      printf "%-5s %d runs: CPU %.3f +- %.3f ms/page, %.1f +- %.1f pages/s\n", m, n[m],
        c[m] / n[m], sd(c[m], c2[m], n[m]), r[m] / n[m], sd(r[m], r2[m], n[m])
    }
    if (n["plain"] && n["serve"]) {
      cp = c["plain"] / n["plain"]; cs = c["serve"] / n["serve"]
      rp = r["plain"] / n["plain"]; rs = r["serve"] / n["serve"]
      # sd of a difference of means (independent runs)
      sc = sqrt(sd(c["plain"], c2["plain"], n["plain"])^2 / n["plain"] + sd(c["serve"], c2["serve"], n["serve"])^2 / n["serve"])
      sr = sqrt(sd(r["plain"], r2["plain"], n["plain"])^2 / n["plain"] + sd(r["serve"], r2["serve"], n["serve"])^2 / n["serve"])
      printf "--serve vs plain: CPU a page %+.1f %% (+- %.1f %%), pages/s %+.1f %% (+- %.1f %%)\n",
        100 * (cs - cp) / cp, 100 * sc / cp, 100 * (rs - rp) / rp, 100 * sr / rp
    }
  }' "$TMP/runs.tsv"
