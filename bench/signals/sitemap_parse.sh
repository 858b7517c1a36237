#!/usr/bin/env bash
# Sitemap parsing bench (issue 34 acceptance: 20 sitemaps of 50,000 URLs
# each parsed in <= 3 s CPU and <= 100 MB RSS). Runs build/bench/sitemap_bench
# on plain and gzip files in a scratch directory and checks both limits.
# Usage: bench/signals/sitemap_parse.sh [FILES URLS]      (default 20 50000)
set -euo pipefail
cd "$(dirname "$0")/../.."
BIN=${SITEMAP_BENCH:-build/bench/sitemap_bench}
[ -x "$BIN" ] || { echo "sitemap_bench.sh: build it first: JOBS=2 scripts/build sitemap_bench" >&2; exit 1; }
DIR=$(mktemp -d); trap 'rm -rf "$DIR"' EXIT
status=0
for mode in plain gzip; do
  rm -f "$DIR"/*
  line=$("$BIN" "$DIR" "${1:-20}" "${2:-50000}" "$mode")
  echo "$line"
  echo "$line" | awk '{ for (i = 1; i < NF; i++) v[$i] = $(i + 1) }
    END { ok = v["parse_cpu_s"] <= 3 && v["max_rss_mb"] <= 100;
          printf "  -> %s (limits: 3 s CPU, 100 MB RSS)\n", ok ? "within" : "OVER"; exit !ok }' || status=1
done
exit $status
