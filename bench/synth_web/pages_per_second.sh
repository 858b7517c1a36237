#!/usr/bin/env bash
# Load test of `topicrawl web synth`: pages/s with wrk (keep-alive, random
# canonical pages of all hosts, Host header per request).
# Usage: bench/synth_web/pages_per_second.sh [seconds=10] [connections=64] [extra synth knobs...]
# Needs wrk (Debian package `wrk`).
set -euo pipefail
cd "$(dirname "$0")/../.."
SECONDS_=${1:-10}; CONNS=${2:-64}; shift 2 || true
BIN=${TOPICRAWL:-build/topicrawl}
command -v wrk >/dev/null || { echo "wrk not installed (apt-get install wrk)" >&2; exit 2; }
tmp=$(mktemp -d); trap 'kill $(cat "$tmp/pid" 2>/dev/null) 2>/dev/null || true; rm -rf "$tmp"' EXIT
"$BIN" web synth-labels --out "$tmp/labels.tsv" "$@" 2>/dev/null
# Random sample of 20000 page URLs as "host path" lines for the Lua script.
tail -n +2 "$tmp/labels.tsv" | cut -f1 | shuf -n 20000 --random-source=<(yes) |
  sed -E 's|^http://([^/]+)(/.*)$|\1 \2|' > "$tmp/urls.txt"
"$BIN" web synth --port 0 "$@" > "$tmp/out" 2>"$tmp/err" & echo $! > "$tmp/pid"
for _ in $(seq 50); do grep -q crawl-args "$tmp/out" && break; sleep 0.1; done
PORT=$(sed -E 's/.*127\.0\.0\.1:([0-9]+).*/\1/' "$tmp/out")
cat > "$tmp/req.lua" <<LUA
local urls = {}
for line in io.lines("$tmp/urls.txt") do
  local host, path = line:match("^(%S+) (%S+)$")
  urls[#urls + 1] = wrk.format("GET", path, { Host = host })
end
local i = 0
request = function()
  i = i + 1
  return urls[(i % #urls) + 1]
end
LUA
wrk -t 2 -c "$CONNS" -d "${SECONDS_}s" -s "$tmp/req.lua" "http://127.0.0.1:$PORT/"
