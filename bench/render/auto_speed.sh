#!/usr/bin/env bash
# --render auto against --render never on a web of static sites (the dev
# web): wall time, the crawler's CPU time and the CPU time of its Chromium
# processes, the share of pages rendered and each host's decision.
#
#   bench/render/auto_speed.sh $(cat /work/webs/dev.args)
#   RUNS=3 PAGES=2000 bench/render/auto_speed.sh $(cat /work/webs/dev.args)
#
# The arguments are passed to `crawl` (the web's --connect-to and --cacert).
# Runs alternate never, auto, never, auto, ... so that a change of the
# machine's load hits both modes. On a shared machine the wall times say
# more about the others' load than about the crawler; the CPU times do not:
# "auto/never by CPU" is never's CPU over auto's (crawler + Chromium), the
# speed ratio of a CPU-bound crawl on free cores.
#
# BEFORE=<binary>: a third mode, "before", is --render auto with that
# binary (a build without the change being measured), in the same
# alternation: never, auto, before, never, ...
set -euo pipefail
cd "$(dirname "$0")/../.."
BIN=${BIN:-build/topicrawl}
OUT=${OUT:-/work/runs/render/auto_speed}
PAGES=${PAGES:-2000}
RUNS=${RUNS:-1}
SEEDS=${SEEDS:-/work/shared/corpus/homes/dev-homes.tsv}
TOPIC=${TOPIC:-/work/shared/corpus/topics/dev-networking.txt}
rm -rf "$OUT"; mkdir -p "$OUT"
HZ=$(getconf CLK_TCK)

BEFORE=${BEFORE:-}
MODES="never auto"
[ -n "$BEFORE" ] && MODES="never auto before"

# Runs one crawl with binary $1; prints "wall crawler_cpu chromium_cpu".
crawl() {
  local bin=$1 dir=$2; shift 2
  local start end
  start=$(date +%s.%N)
  "$bin" crawl --seeds "$SEEDS" --topic "$TOPIC" --max-pages "$PAGES" --delay 0 \
    --out "$dir" "$@" > "$dir.out" 2> "$dir.log" &
  local pid=$!
  : > "$dir.ticks"
  set +e  # a process may end between listing it and reading it
  # Each Chromium process's CPU ticks as last seen: the process groups the
  # crawler's browsers lead; the crawler's own ticks (children excluded).
  while kill -0 "$pid" 2> /dev/null; do
    leaders=$(pgrep -P "$pid" 2> /dev/null | tr '\n' ' ' || true)
    if [ -n "$leaders" ]; then
      for p in $(ps -e -o pid= -o pgid= | awk -v l=" $leaders" 'index(l, " " $2 " ") {print $1}'); do
        awk -v p="$p" '{sub(/^.*\) /, ""); print p, $12 + $13}' /proc/$p/stat 2> /dev/null || true
      done >> "$dir.ticks"
    fi
    awk '{sub(/^.*\) /, ""); print "crawler", $12 + $13}' /proc/$pid/stat >> "$dir.ticks" 2> /dev/null || true
    sleep 0.2
  done
  set -e
  wait "$pid"
  end=$(date +%s.%N)
  awk -v hz="$HZ" -v wall="$(echo "$end - $start" | bc)" '
    $1 == "crawler" {c = $2; next} {t[$1] = $2}
    END {for (p in t) s += t[p]; printf "%.1f %.1f %.1f\n", wall, c / hz, s / hz}' "$dir.ticks"
}

for run in $(seq "$RUNS"); do
  for mode in $MODES; do
    load=$(cut -d' ' -f1-3 /proc/loadavg)
    bin=$BIN render=$mode
    [ "$mode" = before ] && bin=$BEFORE render=auto
    read -r wall ccpu bcpu <<< "$(crawl "$bin" "$OUT/$mode$run" --render "$render" "$@")"
    pages=$(sqlite3 "$OUT/$mode$run/crawl.db" "SELECT count(*) FROM pages WHERE status = 'ok'")
    echo "$run $mode $wall $ccpu $bcpu $pages $load" >> "$OUT/runs.txt"
    printf "run %d %-5s wall %6.1f s  %5.1f pages/s  CPU crawler %5.1f s + chromium %5.1f s  (load before: %s)\n" \
      "$run" "$mode" "$wall" "$(echo "$pages / $wall" | bc -l)" "$ccpu" "$bcpu" "$load"
  done
  for mode in auto ${BEFORE:+before}; do
    sqlite3 "$OUT/$mode$run/crawl.db" "SELECT '  $mode: ' || detail FROM events WHERE kind = 'render'"
  done
  # The same crawl? Share of never's pages that auto fetched too.
  sqlite3 "$OUT/auto$run/crawl.db" "ATTACH '$OUT/never$run/crawl.db' AS n;
    SELECT printf('  pages of never%d also in auto%d: %.2f', $run, $run,
      1.0 * count(*) / (SELECT count(*) FROM n.pages WHERE status = 'ok'))
    FROM n.pages np WHERE np.status = 'ok' AND np.url IN (SELECT url FROM main.pages WHERE status = 'ok')"
done
# pages/s per run; mean +- sd per mode; the ratio of the means.
awk '{r = $6 / $3; s[$2] += r; q[$2] += r * r; c[$2] += $4 + $5; n[$2]++}
  END {for (m in n) {mu[m] = s[m] / n[m]; v = q[m] / n[m] - mu[m] * mu[m];
         sd[m] = n[m] > 1 ? sqrt((v > 0 ? v : 0) * n[m] / (n[m] - 1)) : 0}
       printf "pages/s over %d runs: never %.1f +- %.1f, auto %.1f +- %.1f: auto/never %.0f %% (by CPU %.0f %%)\n",
         n["never"], mu["never"], sd["never"], mu["auto"], sd["auto"], 100 * mu["auto"] / mu["never"],
         100 * c["never"] / c["auto"]
       if (n["before"]) printf "  before: %.1f +- %.1f: before/never %.0f %% (by CPU %.0f %%)\n",
         mu["before"], sd["before"], 100 * mu["before"] / mu["never"], 100 * c["never"] / c["before"]}' "$OUT/runs.txt"
sqlite3 "$OUT/auto1/crawl.db" "SELECT '  ' || detail FROM events WHERE kind = 'render_decision'"
