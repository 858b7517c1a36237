#!/usr/bin/env bash
# Peer comparison: crawl a served benchmark web (corpus README §1 "Serving")
# with GNU wget --recursive, Crawlee's CheerioCrawler and topicrawl under the
# same page budget, and print pages/s, CPU ms/page and peak RSS side by side
# (all measured with /usr/bin/time -v). Not run in CI.
#
# The web is reached through its nginx as a plain HTTP proxy: nginx serves
# virtual hosts by Host header, so `GET http://host/path` sent to it works
# (wget -e http_proxy=..., Crawlee proxyUrl). https:// links would need
# CONNECT, which nginx does not do: both peers only follow http:// links.
# topicrawl is given --connect-to instead (same effect).
#
# Usage: bench/peers/run.sh [--proxy 127.0.0.1:18080] [--max-pages 2000]
#          [--homes FILE] [--out DIR] [--only wget,crawlee,topicrawl]
#          [--topicrawl BIN] [--topicrawl-args "--strategy bfs --topic F ..."]
# Crawlee is installed into bench/peers/node_modules on first use (npm).
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
repo="$(cd "$here/../.." && pwd)"
proxy=127.0.0.1:18080
max_pages=2000
homes="$repo/../shared/corpus/homes/dev-homes.tsv"
out=/tmp/topicrawl-peers
only=wget,crawlee,topicrawl
topicrawl="$repo/build/topicrawl"
topicrawl_args="--strategy bfs"
while [ $# -gt 0 ]; do
  case "$1" in
    --proxy) proxy="$2"; shift 2 ;;
    --max-pages) max_pages="$2"; shift 2 ;;
    --homes) homes="$2"; shift 2 ;;
    --out) out="$2"; shift 2 ;;
    --only) only="$2"; shift 2 ;;
    --topicrawl) topicrawl="$2"; shift 2 ;;
    --topicrawl-args) topicrawl_args="$2"; shift 2 ;;
    -h|--help) sed -n '2,20p' "$0"; exit 0 ;;
    *) echo "run.sh: unknown argument $1" >&2; exit 2 ;;
  esac
done
[ -x /usr/bin/time ] || { echo "run.sh: needs /usr/bin/time (Debian package time)" >&2; exit 2; }
[ -f "$homes" ] || { echo "run.sh: no homes file $homes" >&2; exit 2; }
mkdir -p "$out"
seeds=$(tail -n +2 "$homes" | cut -f2)
hosts=$(tail -n +2 "$homes" | cut -f1 | paste -sd,)
echo "$seeds" > "$out/seeds.txt"
if ! curl -s -o /dev/null -x "http://$proxy" "$(echo "$seeds" | head -1)"; then
  echo "run.sh: nothing answers at $proxy (serve the web first)" >&2; exit 1
fi

# field NAME FILE: a value from /usr/bin/time -v output.
field() { grep -F "$1" "$2" | head -1 | sed 's/.*: //'; }
# wall clock "h:mm:ss" or "m:ss.ss" -> seconds
seconds() { echo "$1" | awk -F: '{ s = 0; for (i = 1; i <= NF; i++) s = s * 60 + $i; print s }'; }
report() {  # report NAME PAGES TIMEFILE
  local name=$1 pages=$2 tf=$3
  local wall user sys rss
  wall=$(seconds "$(field 'Elapsed (wall clock)' "$tf")")
  user=$(field 'User time' "$tf"); sys=$(field 'System time' "$tf")
  rss=$(field 'Maximum resident set size' "$tf")
  awk -v n="$name" -v p="$pages" -v w="$wall" -v u="$user" -v s="$sys" -v r="$rss" 'BEGIN {
    if (p < 1) p = 0;
    printf "%-10s %7d %9.1f %9.2f %12s %10.1f\n", n, p, w, (w > 0 ? p / w : 0),
           (p > 0 ? sprintf("%.2f", (u + s) * 1000 / p) : "-"), r / 1024 }' >> "$out/results.txt"
}
: > "$out/results.txt"

run_wget() {
  local dir="$out/wget"
  rm -rf "$dir"; mkdir -p "$dir"
  # wget has no page budget: a watcher stops it once it logged max_pages saves.
  /usr/bin/time -v -o "$dir/time.txt" wget --recursive --level=inf --span-hosts \
    --domains="$hosts" --accept html,htm --no-verbose -e use_proxy=on \
    -e "http_proxy=http://$proxy" -P "$dir/files" -o "$dir/wget.log" \
    -i "$out/seeds.txt" &
  local timepid=$!
  local wpid=""
  while kill -0 "$timepid" 2>/dev/null; do
    [ -z "$wpid" ] && wpid=$(pgrep -P "$timepid" -x wget || true)
    local n
    n=$(grep -c ' -> "' "$dir/wget.log" 2>/dev/null || true)
    if [ -n "$wpid" ] && [ "${n:-0}" -ge "$max_pages" ]; then kill -TERM "$wpid" 2>/dev/null || true; break; fi
    sleep 0.2
  done
  wait "$timepid" 2>/dev/null || true
  report wget "$(grep -c ' -> "' "$dir/wget.log" || true)" "$dir/time.txt"
}

run_crawlee() {
  local dir="$out/crawlee"
  rm -rf "$dir"; mkdir -p "$dir"
  if [ ! -d "$here/node_modules/@crawlee/cheerio" ]; then
    (cd "$here" && npm install --no-audit --no-fund --silent) >&2
  fi
  (cd "$dir" && /usr/bin/time -v -o "$dir/time.txt" node "$here/crawlee.mjs" "http://$proxy" \
     "$max_pages" "$hosts" $seeds > "$dir/result.json" 2> "$dir/crawlee.log") || true
  report crawlee "$(sed -n 's/.*"pages":\([0-9]*\).*/\1/p' "$dir/result.json")" "$dir/time.txt"
}

run_topicrawl() {
  local dir="$out/topicrawl"
  if ! "$topicrawl" crawl --help > /dev/null 2>&1; then
    echo "run.sh: $topicrawl has no crawl subcommand yet; skipping topicrawl" >&2; return
  fi
  rm -rf "$dir"
  local port=${proxy##*:}
  # shellcheck disable=SC2086  # topicrawl_args is a word list on purpose
  /usr/bin/time -v -o "$out/topicrawl.time.txt" "$topicrawl" crawl --seeds "$out/seeds.txt" \
    --max-pages "$max_pages" --out "$dir" --delay 0 --connect-to "::127.0.0.1:$port" \
    $topicrawl_args > "$out/topicrawl.log" 2>&1 || true
  local dp
  dp=$("$topicrawl" eval "$dir" --json 2>/dev/null | sed -n 's/^  "dp": \([0-9]*\).*/\1/p')
  report topicrawl "${dp:-0}" "$out/topicrawl.time.txt"
}

for tool in ${only//,/ }; do "run_$tool"; done
printf "%-10s %7s %9s %9s %12s %10s\n" tool pages wall_s pages/s "CPU ms/page" "peak RSS MB"
cat "$out/results.txt"
