#!/usr/bin/env bash
# JLSE's BM25 idf, both forms (docs/strategies/jlse.md, "How it differs from
# the paper"): [strategy.jlse] bm25_idf = "lucene", ln(1 + (N - n + 0.5) /
# (n + 0.5)), against "robertson", the seed's eq. 6, ln((N - n + 0.5) /
# (n + 0.5)) floored at 0. One jlse crawl per form and RNG seed on WEB, topic
# networking, each evaluated against the labels at the checkpoints AT. The
# page classifier's examples come from make_example_topics.py (the on- and
# off-topic prefixes of data/topics/WEBNAME-networking-nb.toml, never the
# labels); every other key at its default.
#
# Usage: bench/jlse/bm25_idf.sh OUT
# Environment: BIN=build/topicrawl  PAGES=1000  AT=250,500,750,$PAGES (eval
#   checkpoints)  SEEDS="1 2 3 4 5"  IDFS="lucene robertson"
#   WEB=/work/webs/dev (its manifest.tsv and root/; the crawl flags from
#   WEB.args: the coordinator serves it; the web's name, dev or zh, picks
#   WEBNAME-homes.tsv, WEBNAME-networking.tsv and the -nb.toml)
#   SHARED=../shared (the corpus: homes and labels).
# Crawls run one at a time under nice -n 10 with --delay 0 (the web is
# local); finished runs (OUT/IDF-sS/eval.json) are reused. The table:
# bench/jlse/bm25_idf_summary.py OUT.
set -euo pipefail
cd "$(dirname "$0")/../.."
[ $# -eq 1 ] || { sed -n '2,/^set -e/p' "$0" | sed '$d' | sed 's/^# \{0,1\}//' >&2; exit 2; }
OUT=$1
BIN=${BIN:-build/topicrawl}
PAGES=${PAGES:-1000}
AT=${AT:-250,500,750,$PAGES}
SEEDS=${SEEDS:-1 2 3 4 5}
IDFS=${IDFS:-lucene robertson}
WEB=${WEB:-/work/webs/dev}
WEBNAME=$(basename "$WEB")
ARGS=$(cat "${WEB}.args")
SHARED=${SHARED:-../shared}
LABELS=$SHARED/corpus/labels/$WEBNAME-networking.tsv
HOMES=$SHARED/corpus/homes/$WEBNAME-homes.tsv
mkdir -p "$OUT"
[ -f "$OUT/topic-base.toml" ] ||
  python3 bench/jlse/make_example_topics.py "data/topics/$WEBNAME-networking-nb.toml" \
    "$WEB/manifest.tsv" "$WEB/root" "$OUT/topic-base.toml"
for idf in $IDFS; do
  { cat "$OUT/topic-base.toml"; printf '[strategy.jlse]\nbm25_idf = "%s"\n' "$idf"; } > "$OUT/topic-$idf.toml"
  for s in $SEEDS; do
    d=$OUT/$idf-s$s
    [ -f "$d/eval.json" ] && continue
    if [ ! -f "$d/jlse_stats.json" ]; then
      rm -rf "$d"
      # shellcheck disable=SC2086  # ARGS is a list of flags
      nice -n 10 "$BIN" crawl --seeds "$HOMES" --topic "$OUT/topic-$idf.toml" \
        --strategy jlse --max-pages "$PAGES" --rng-seed "$s" --delay 0 --out "$d" $ARGS > "$d.log" 2>&1
    fi
    nice -n 10 "$BIN" eval "$d" --labels "$LABELS" --at "$AT" --json > "$d/eval.json"
  done
done
python3 bench/jlse/bm25_idf_summary.py "$OUT"
