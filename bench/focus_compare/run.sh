#!/usr/bin/env bash
# Focus comparison (issue 33): every registered strategy, RUNS RNG seeds each,
# at a page budget of 3|R| on one web and topic, plus the oracle crawl; prints
# a markdown table of mean +- sd recall@2|R|, recall@3|R|, harvest@3|R|,
# share_of_oracle@2|R| and @3|R|, the judge's F1 and pages/s.
#
# Usage: bench/focus_compare/run.sh NAME WEB_DIR HOMES TOPIC LABELS
#   NAME     a label for the run directory (e.g. dev-networking)
#   WEB_DIR  a built web (`topicrawl web build`): root/, manifest.tsv,
#            site-index.tsv. It is served from a private directory under OUT
#            (root symlinked), on free ports, and stopped at the end.
#   HOMES    seeds (homes/*.tsv); TOPIC a topic file; LABELS its label file.
# Environment:
#   OUT=/work/runs/$USER-or-evalweb/focus-compare   where runs go (OUT/NAME/...)
#   STRATEGIES=a,b      default: every strategy `topicrawl crawl --help` lists
#   RUNS=5 FIRST_SEED=1 RNG seeds FIRST_SEED..FIRST_SEED+RUNS-1
#   BIN=build/topicrawl
#   GRAPH=DIR           the full crawl whose links are the oracle's graph;
#                       default OUT/NAME-graph, made here once by a BFS crawl
#                       with no page budget (shared by the topics of a web:
#                       pass the same GRAPH)
#   EXTRA="..."         more crawl flags for every run (compare already passes
#                       --delay 0: the served web is local)
# Crawls run one at a time (`topicrawl compare`), under nice -n 10; finished
# runs are reused, so a second call with a new strategy only runs that one.
# The table goes to stdout and OUT/NAME/focus.md; per-run figures to
# OUT/NAME/focus-runs.tsv.
set -euo pipefail
cd "$(dirname "$0")/../.."
[ $# -eq 5 ] || { sed -n '2,/^set -e/p' "$0" | sed '$d' | sed 's/^# \{0,1\}//' >&2; exit 2; }
NAME=$1 WEB=$2 HOMES=$3 TOPIC=$4 LABELS=$5
BIN=${BIN:-build/topicrawl}
OUT=${OUT:-/work/runs/evalweb/focus-compare}
RUNS=${RUNS:-5}
FIRST_SEED=${FIRST_SEED:-1}
EXTRA=${EXTRA:-}
GRAPH=${GRAPH:-$OUT/$NAME-graph}
STRATEGIES=${STRATEGIES:-$("$BIN" crawl --help | sed -n 's/.*Strategy: \([^[]*\).*/\1/p' |
  head -1 | tr -d ' ' | sed 's/,$//')}
NICE="nice -n 10"
mkdir -p "$OUT/$NAME"
log() { echo "== $(date -u +%H:%M:%S) $*" >&2; }

R=$(awk -F'\t' '$2 == 1' "$LABELS" | wc -l)
[ "$R" -gt 0 ] || { echo "no relevant page in $LABELS" >&2; exit 1; }
B2=$((2 * R)) B3=$((3 * R))
log "$NAME: |R| = $R, budget $B3, checkpoints $B2,$B3; strategies $STRATEGIES"

# A private serve directory: the web's tree by symlink, its small files copied.
SERVE=$OUT/serve-$NAME
mkdir -p "$SERVE"
ln -sfn "$(readlink -f "$WEB/root")" "$SERVE/root"
cp "$WEB/manifest.tsv" "$WEB/site-index.tsv" "$SERVE/"
ARGS=$("$BIN" web serve --dir "$SERVE" --port 0 --tls-port 0 | sed -n 's/^crawl-args: //p' | tail -1)
trap '"$BIN" web stop --dir "$SERVE" >/dev/null 2>&1 || true' EXIT
[ -n "$ARGS" ] || { echo "web serve printed no crawl-args" >&2; exit 1; }

if [ ! -f "$GRAPH/crawl.db" ] || ! sqlite3 "$GRAPH/crawl.db" \
    "SELECT 1 FROM meta WHERE key = 'finished_at'" | grep -q 1; then
  log "graph: full BFS crawl into $GRAPH"
  rm -rf "$GRAPH"
  # Only the manifest's hosts: the others answer 404 and hold no node.
  SCOPE=$(tail -n +2 "$WEB/manifest.tsv" | cut -f1 | sort -u | sed 's/^/--include-host /' | tr '\n' ' ')
  # shellcheck disable=SC2086  # ARGS, SCOPE and EXTRA are flag lists
  $NICE "$BIN" crawl --strategy bfs --seeds "$HOMES" --topic "$TOPIC" --max-pages 0 \
    --delay 0 --out "$GRAPH" $SCOPE $EXTRA $ARGS > "$OUT/$NAME-graph.log" 2>&1
fi

log "compare into $OUT/$NAME"
# shellcheck disable=SC2086
$NICE "$BIN" compare --strategies "$STRATEGIES" --seeds "$HOMES" --topic "$TOPIC" \
  --labels "$LABELS" --max-pages "$B3" --runs "$RUNS" --first-seed "$FIRST_SEED" \
  --at "$B2,$B3" --out "$OUT/$NAME" ${EXTRA:+--extra-crawl-args "$EXTRA"} $ARGS \
  > "$OUT/$NAME/compare.log" 2>&1 || log "compare exited $? (failed runs are rows with n=0)"

log "eval with the oracle"
python3 bench/focus_compare/summarize.py --bin "$BIN" --graph "$GRAPH" --labels "$LABELS" \
  --name "$NAME" --relevant "$R" --strategies "$STRATEGIES" --runs-dir "$OUT/$NAME/runs" \
  --tsv "$OUT/$NAME/focus-runs.tsv" | tee "$OUT/$NAME/focus.md"
