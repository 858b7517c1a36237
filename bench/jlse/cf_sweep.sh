#!/usr/bin/env bash
# Seed 004's cf sweep (its Fig. 5: the incremental learning factor cf = result
# pages between Gw rebuilds, 50 / 100 / 150 / 200): one jlse crawl per cf and
# RNG seed on the dev web, networking, each evaluated against the labels at
# the checkpoints AT. The page classifier's examples come from
# make_example_topics.py (20 positive, 30 negative pages of the on- and
# off-topic prefixes of data/topics/dev-networking-nb.toml, never from the
# labels); every other key at its default.
#
# Usage: bench/jlse/cf_sweep.sh OUT
# Environment: BIN=build/topicrawl  PAGES=1000  AT=250,500,750,$PAGES (eval
#   checkpoints)  SEEDS="1 2 3 4 5"
#   CFS="50 100 150 200"  WEB=/work/webs/dev (its manifest.tsv and root/;
#   the crawl flags from /work/webs/dev.args: the coordinator serves it)
#   SHARED=../shared (the corpus: homes and labels).
# Crawls run one at a time under nice -n 10 with --delay 0 (the web is
# local); finished runs (OUT/cfC-sS/eval.json) are reused (delete eval.json to
# evaluate at other checkpoints: the crawl is kept). The table:
# bench/jlse/cf_sweep_summary.py OUT.
set -euo pipefail
cd "$(dirname "$0")/../.."
[ $# -eq 1 ] || { sed -n '2,/^set -e/p' "$0" | sed '$d' | sed 's/^# \{0,1\}//' >&2; exit 2; }
OUT=$1
BIN=${BIN:-build/topicrawl}
PAGES=${PAGES:-1000}
AT=${AT:-250,500,750,$PAGES}
SEEDS=${SEEDS:-1 2 3 4 5}
CFS=${CFS:-50 100 150 200}
WEB=${WEB:-/work/webs/dev}
ARGS=$(cat "${WEB}.args")
SHARED=${SHARED:-../shared}
LABELS=$SHARED/corpus/labels/dev-networking.tsv
mkdir -p "$OUT"
[ -f "$OUT/topic-base.toml" ] ||
  python3 bench/jlse/make_example_topics.py data/topics/dev-networking-nb.toml \
    "$WEB/manifest.tsv" "$WEB/root" "$OUT/topic-base.toml"
for cf in $CFS; do
  { cat "$OUT/topic-base.toml"; printf '[strategy.jlse]\ncf = %d\n' "$cf"; } > "$OUT/topic-cf$cf.toml"
  for s in $SEEDS; do
    d=$OUT/cf$cf-s$s
    [ -f "$d/eval.json" ] && continue
    if [ ! -f "$d/jlse_stats.json" ]; then
      rm -rf "$d"
      # shellcheck disable=SC2086  # ARGS is a list of flags
      nice -n 10 "$BIN" crawl --seeds "$SHARED/corpus/homes/dev-homes.tsv" --topic "$OUT/topic-cf$cf.toml" \
        --strategy jlse --max-pages "$PAGES" --rng-seed "$s" --delay 0 --out "$d" $ARGS > "$d.log" 2>&1
    fi
    nice -n 10 "$BIN" eval "$d" --labels "$LABELS" --at "$AT" --json > "$d/eval.json"
  done
done
python3 bench/jlse/cf_sweep_summary.py "$OUT"
