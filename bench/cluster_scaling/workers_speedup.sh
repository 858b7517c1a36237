#!/usr/bin/env bash
# Scale-out bench (issue 16, docs/guides/scale-out.md): 1, 2 and 4 `crawl --cluster`
# workers on the synthetic web with a per-response latency (WAN-like), each
# worker limited to --concurrency 16, so one worker is bound by latency and
# connections, not by this machine's cores. Prints per run: aggregate pages/s,
# CPU per page (user+sys of all workers), Redis commands and bytes per page,
# Redis memory per URL; then the seen-set's bytes per URL at 10^6 URLs.
#
# Usage: bench/cluster_scaling/workers_speedup.sh [BUILD_DIR] (env: PAGES=3000 LATENCY_MS=100
#   HOSTS=400 WORKERS="1 2 4" SEEN_URLS=1000000 OUT=/tmp/cluster-bench)
# Run it under the shared lock: flock /work/heavy.lock bench/cluster_scaling/workers_speedup.sh
set -euo pipefail
BUILD=${1:-build}
BIN=$(realpath "$BUILD/topicrawl")
PAGES=${PAGES:-3000}
LATENCY_MS=${LATENCY_MS:-100}
HOSTS=${HOSTS:-400}
WORKERS=${WORKERS:-"1 2 4"}
SEEN_URLS=${SEEN_URLS:-1000000}
OUT=${OUT:-/tmp/cluster-bench}
rm -rf "$OUT"
mkdir -p "$OUT"

free_port() { python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])'; }

RPORT=$(free_port)
cat > "$OUT/redis.conf" <<CONF
port $RPORT
bind 127.0.0.1
dir $OUT
appendonly yes
save ""
CONF
redis-server "$OUT/redis.conf" > "$OUT/redis.log" 2>&1 &
RPID=$!
SPORT=$(free_port)
"$BIN" web synth --hosts "$HOSTS" --pages $((PAGES * 10)) --latency-ms "$LATENCY_MS" \
  --port "$SPORT" > "$OUT/synth.out" 2> "$OUT/synth.log" &
SPID=$!
cleanup() { kill "$SPID" "$RPID" 2>/dev/null || true; wait "$SPID" "$RPID" 2>/dev/null || true; }
trap cleanup EXIT
for _ in $(seq 50); do redis-cli -p "$RPORT" ping > /dev/null 2>&1 && break; sleep 0.1; done
sleep 0.5
R="redis-cli -p $RPORT"
# Seeds: the homes of the first 20 hosts.
"$BIN" web synth-labels --hosts "$HOSTS" --pages $((PAGES * 10)) --topic 0 \
  --out "$OUT/labels.tsv" --homes "$OUT/homes.tsv" 2> /dev/null
awk -F'\t' 'NR > 1 && NR <= 21 {print $2}' "$OUT/homes.tsv" > "$OUT/seeds.txt"

stat() { $R info "$1" | tr -d '\r' | awk -F: -v k="$2" '$1 == k {print $2}'; }

printf "%-8s %8s %8s %10s %12s %11s %14s %12s %10s %12s\n" workers pages "wall s" "pages/s" "cpu ms/page" "fcall/page" "redis cmd/page" "redis B/page" "seen URLs" "redis B/URL"
# Baseline: the same crawl in one process without --cluster (no Redis).
/usr/bin/time -f "%U %S" -o "$OUT/single.time" \
  "$BIN" crawl --seeds "$OUT/seeds.txt" --max-pages "$PAGES" --delay 0 --per-host 2 \
  --connect-to ":80:127.0.0.1:$SPORT" --allow-private --concurrency 16 --out "$OUT/single" \
  > "$OUT/single.out" 2> "$OUT/single.log"
awk -v p="$PAGES" '{printf "%-8s %8d %8s %10s %12.2f   (single process, no --cluster; wall in single.out)\n", "single", p, "-", "-", 1000 * ($1 + $2) / p}' "$OUT/single.time"
for n in $WORKERS; do
  $R flushall > /dev/null
  $R config resetstat > /dev/null
  cmd0=$(stat stats total_commands_processed)
  in0=$(stat stats total_net_input_bytes)
  out0=$(stat stats total_net_output_bytes)
  mem0=$(stat memory used_memory)
  id="bench$n"
  start=$(date +%s.%N)
  pids=()
  for i in $(seq 1 "$n"); do
    flags=()
    if [ "$i" = 1 ]; then
      flags=(--seeds "$OUT/seeds.txt" --max-pages "$PAGES" --delay 0 --per-host 2
             --connect-to ":80:127.0.0.1:$SPORT" --allow-private --expected-urls 1000000)
    fi
    /usr/bin/time -f "%U %S" -o "$OUT/$id-w$i.time" \
      "$BIN" crawl --cluster "redis://127.0.0.1:$RPORT" --crawl-id "$id" --worker-id "w$i" \
      --out "$OUT/$id-w$i" --concurrency 16 "${flags[@]}" > "$OUT/$id-w$i.out" 2> "$OUT/$id-w$i.log" &
    pids+=($!)
    [ "$i" = 1 ] && sleep 0.3  # the first worker registers the crawl
  done
  for p in "${pids[@]}"; do wait "$p" || echo "worker exited with $?" >&2; done
  end=$(date +%s.%N)
  cpu=$(cat "$OUT/$id"-w*.time | awk '{s += $1 + $2} END {print s}')
  cmd1=$(stat stats total_commands_processed)
  fcall=$($R info commandstats | tr -d '\r' | awk -F'[=,:]' '$1 == "cmdstat_fcall" {print $3}')
  in1=$(stat stats total_net_input_bytes)
  out1=$(stat stats total_net_output_bytes)
  mem1=$(stat memory used_memory)
  ok=$($R get "tc:{$id}:ok")
  seen=$("$BIN" cluster status --cluster "redis://127.0.0.1:$RPORT" --crawl-id "$id" |
         awk '/^seen URLs/ {print $3}')
  awk -v n="$n" -v ok="$ok" -v fc="${fcall:-0}" -v s="$start" -v e="$end" -v cpu="$cpu" -v c0="$cmd0" -v c1="$cmd1" \
      -v i0="$in0" -v i1="$in1" -v o0="$out0" -v o1="$out1" -v m0="$mem0" -v m1="$mem1" -v seen="$seen" \
      'BEGIN {printf "%-8d %8d %8.1f %10.1f %12.2f %11.2f %14.1f %12.0f %10d %12.1f\n", n, ok, e - s,
              ok / (e - s), 1000 * cpu / ok, fc / ok, (c1 - c0) / ok, (i1 - i0 + o1 - o0) / ok,
              seen, (m1 - m0) / seen}'
done

# Seen-set at 10^6 URLs: the crawl's bucketing (SeenBucketsFor(10^6) = 4,096
# buckets) filled with random 64-bit-range integers inside Redis, then
# MEMORY USAGE summed over the buckets.
$R flushall > /dev/null
buckets=4096
$R eval "
  math.randomseed(1)
  for i = 1, tonumber(ARGV[1]) do
    local v = math.floor(math.random() * 2^52) * 1024 + math.floor(math.random() * 1024) + 2^33
    redis.call('SADD', 'seen:' .. (i % tonumber(ARGV[2])), string.format('%.0f', v))
  end
  return 1" 0 "$SEEN_URLS" "$buckets"
members=0; bytes=0
for ((b = 0; b < buckets; b++)); do echo "SCARD seen:$b"; echo "MEMORY USAGE seen:$b SAMPLES 0"; done |
  $R > "$OUT/seen.txt"
awk -v n="$SEEN_URLS" 'NR % 2 == 1 {m += $1} NR % 2 == 0 {b += $1}
  END {printf "seen-set: %d URLs in 4096 buckets, %d bytes, %.2f B/URL (encoding of seen:0: ", m, b, b / m}' "$OUT/seen.txt"
$R object encoding seen:0 | tr -d '\n'
echo ")"
