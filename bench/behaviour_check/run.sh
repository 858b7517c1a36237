#!/usr/bin/env bash
# Behaviour check: for every registered crawl strategy and every round
# policy, one fixed-seed `--deterministic` run on a static benchmark web,
# reduced to a digest of what the run decided (which URLs, in which order,
# with which relevance and link score; for a round also the revisit
# priorities). Two builds that behave alike print the same lines, so a
# before/after comparison of a refactoring is one `diff`.
#
# Usage: bench/behaviour_check/run.sh OUT       (prints the digest to stdout)
#   TOPICRAWL=build/topicrawl   the binary under test
#   WEB=/work/webs/dev          a built benchmark web (root/, site-index.tsv),
#                               or "synth": the synthetic web (SYNTH_FLAGS)
#   PAGES=300                   pages per run (round 0 and each round)
#   RNG_SEED=1
#   MODELS=OUT/models           seed-001 Naive Bayes models (link + page); made
#                               from a collect-links crawl when missing. Reuse
#                               one MODELS for both sides of a comparison: the
#                               models are inputs, not what is being checked.
#   STRATEGIES / POLICIES       comma lists (default: every registered one,
#                               read from `crawl --help` / `recrawl --help`)
# OUT/<kind>-<name>.tsv holds the full rows behind each digest line (diff
# them to see where two runs part).
set -euo pipefail
cd "$(dirname "$0")/../.."
BIN=$(realpath "${TOPICRAWL:-build/topicrawl}")
CORPUS=$(realpath "${TOPICRAWL_CORPUS:-../shared/corpus}")
WEB=${WEB:-/work/webs/dev}
PAGES=${PAGES:-300}
RNG_SEED=${RNG_SEED:-1}
OUT=${1:?usage: bench/behaviour_check/run.sh OUT}
mkdir -p "$OUT"
OUT=$(realpath "$OUT")
MODELS=${MODELS:-$OUT/models}
log() { echo "== $*" >&2; }

# The web: a built benchmark web (WEB=DIR) served by nginx from a private
# directory (nginx.conf, certificates and logs go there; the page tree is
# the shared one, read only), or WEB=synth: the deterministic synthetic web
# (`web synth`, SYNTH_FLAGS) with its own homes and labels.
SEEDS=$CORPUS/homes/dev-homes.tsv
PREFIXES=
if [ "$WEB" = synth ]; then
  SYNTH_FLAGS=${SYNTH_FLAGS:---hosts 40 --pages 20000 --seed 3}
  # shellcheck disable=SC2086  # a flag list
  "$BIN" web synth-labels $SYNTH_FLAGS --topic networking --out "$OUT/synth-labels.tsv" \
    --homes "$OUT/synth-homes.tsv" > /dev/null 2>&1
  SEEDS=$OUT/synth-homes.tsv
  # shellcheck disable=SC2086
  "$BIN" web synth $SYNTH_FLAGS --port 0 > "$OUT/synth.out" 2> "$OUT/synth.err" &
  synth_pid=$!
  trap 'kill "$synth_pid" 2>/dev/null || true' EXIT
  for _ in $(seq 100); do grep -q crawl-args "$OUT/synth.out" && break; sleep 0.1; done
  args=$(sed -n 's/^crawl-args: //p' "$OUT/synth.out")
  # Seed-001 labels by host: a host is on topic when most of its labelled
  # pages are (the synthetic hosts have a main topic).
  PREFIXES=$(python3 - "$OUT/synth-labels.tsv" <<'PY'
import collections, sys, urllib.parse
n, r = collections.Counter(), collections.Counter()
for line in open(sys.argv[1], encoding="utf-8"):
    cols = line.rstrip("\n").split("\t")
    if len(cols) < 2 or not cols[0].startswith("http"):
        continue
    host = urllib.parse.urlsplit(cols[0]).netloc
    n[host] += 1
    r[host] += cols[1] == "1"
on = [h for h in sorted(n) if 2 * r[h] > n[h]]
off = [h for h in sorted(n) if 2 * r[h] <= n[h]]
print("on_topic_prefixes = [%s]" % ", ".join('"%s/"' % h for h in on))
print("off_topic_prefixes = [%s]" % ", ".join('"%s/"' % h for h in off))
PY
)
else
  serve_dir=$OUT/web
  mkdir -p "$serve_dir"
  [ -e "$serve_dir/root" ] || ln -s "$WEB/root" "$serve_dir/root"
  for f in site-index.tsv manifest.tsv; do
    if [ -e "$WEB/$f" ]; then cp "$WEB/$f" "$serve_dir/$f"; fi
  done
  "$BIN" web stop --dir "$serve_dir" >/dev/null 2>&1 || true
  args=$("$BIN" web serve --dir "$serve_dir" --port 0 --tls-port 0 | sed -n 's/^crawl-args: //p')
  trap '"$BIN" web stop --dir "$serve_dir" >/dev/null 2>&1 || true' EXIT
fi
[ -n "$args" ] || { echo "the web printed no crawl-args" >&2; exit 1; }
# One page at a time, no politeness wait: the order depends only on the code.
# shellcheck disable=SC2206  # the crawl-args line is a flag list
WEB_ARGS=(--seeds "$SEEDS" --max-pages "$PAGES" --delay 0 $args)
COMMON=("${WEB_ARGS[@]}" --deterministic --rng-seed "$RNG_SEED")

# The topic: the corpus networking topic of data/topics/dev-networking-nb.toml
# (on the synthetic web with its hosts as the seed-001 prefixes), with every
# model-based strategy pointed at MODELS; tda trains its word vectors on one
# thread (more are not reproducible).
topic=$OUT/topic.toml
if [ -n "$PREFIXES" ]; then
  sed '/^on_topic_prefixes/,$d' data/topics/dev-networking-nb.toml > "$topic"
  printf '%s\n' "$PREFIXES" >> "$topic"
else
  sed '/^\[strategy\./,$d' data/topics/dev-networking-nb.toml > "$topic"
fi
cp "$topic" "$OUT/topic-collect.toml"
# Seed-001 models for nb-link (and the page model for jlse / ata).
if [ ! -s "$MODELS/link-g2.nb.json" ]; then
  log "models -> $MODELS"
  mkdir -p "$MODELS"
  "$BIN" collect-links --topic "$OUT/topic-collect.toml" --out "$MODELS/data" \
    "${WEB_ARGS[@]}" > "$MODELS/collect.log" 2>&1
  "$BIN" train link-nb --data "$MODELS/data" --features 2 --all \
    --out "$MODELS/link-g2.nb.json" > "$MODELS/train.log" 2>&1
  "$BIN" train page-nb --data "$MODELS/data" --all \
    --out "$MODELS/page.nb.json" >> "$MODELS/train.log" 2>&1
fi
cat >> "$topic" <<TOML
[strategy.nb-link]
model = "$MODELS/link-g2.nb.json"
page_model = "$MODELS/page.nb.json"
[strategy.jlse]
page_model = "$MODELS/page.nb.json"
[strategy.ata]
page_model = "$MODELS/page.nb.json"
[strategy.tda]
threads = 1
TOML

# digest KIND NAME SQL DB: the rows of SQL in DB to OUT/KIND-NAME.tsv, and
# one line: kind, name, rows, sha256 of the rows.
digest() {
  local kind=$1 name=$2 sql=$3 db=$4 file=$OUT/$1-$2.tsv
  sqlite3 -readonly -separator $'\t' "$db" "$sql" > "$file"
  printf '%s\t%s\t%s rows\t%s\n' "$kind" "$name" "$(wc -l < "$file")" \
    "$(sha256sum < "$file" | cut -c1-16)"
}
# The pages stored ok, in fetch order, with their scores; then the other
# rows (failures, robots denials) as a sorted set: they come from outside
# hosts and robots fetches whose timing, not the code, decides where they
# fall between the ok pages.
PAGES_SQL="SELECT url, round, printf('%.9g', relevance), printf('%.9g', link_score)
             FROM pages WHERE status = 'ok' ORDER BY id;
           SELECT '~', url, status, round FROM pages WHERE status != 'ok' ORDER BY url, round"

names() {  # names CMD LABEL: the list after "LABEL:" on its line of CMD --help
  "$BIN" "$1" --help | sed -n "s/.*$2: \([a-z0-9, -]*[a-z0-9]\).*/\1/p" | head -1 | tr -d ' '
}
STRATEGIES=${STRATEGIES:-$(names crawl Strategy)}
POLICIES=${POLICIES:-$(names recrawl 'Round policy')}

for s in ${STRATEGIES//,/ }; do
  dir=$OUT/crawl-$s
  rm -rf "$dir"
  log "crawl $s"
  if ! "$BIN" crawl --strategy "$s" --topic "$topic" --out "$dir" "${COMMON[@]}" \
      > "$OUT/crawl-$s.log" 2>&1; then
    printf 'strategy\t%s\tFAILED (see %s)\n' "$s" "$OUT/crawl-$s.log"
    continue
  fi
  digest strategy "$s" "$PAGES_SQL" "$dir/crawl.db"
done

# Rounds: one best-first round 0, then round 1 with each policy on a copy.
base=$OUT/rounds-base
rm -rf "$base"
log "round 0 (best-first)"
"$BIN" crawl --strategy best-first --topic "$topic" --out "$base" "${COMMON[@]}" \
  > "$OUT/rounds-base.log" 2>&1
for p in ${POLICIES//,/ }; do
  dir=$OUT/round-$p
  rm -rf "$dir"
  cp -r "$base" "$dir"
  log "recrawl $p"
  # recrawl reads --deterministic and --rng-seed from the crawl's config.toml.
  if ! "$BIN" recrawl "$dir" --policy "$p" "${WEB_ARGS[@]}" > "$OUT/round-$p.log" 2>&1; then
    printf 'policy\t%s\tFAILED (see %s)\n' "$p" "$OUT/round-$p.log"
    continue
  fi
  digest policy "$p" "$PAGES_SQL" "$dir/crawl.db"
  digest revisits "$p" "SELECT url_id, printf('%.9g', priority) FROM revisits ORDER BY url_id" \
    "$dir/crawl.db"
done
