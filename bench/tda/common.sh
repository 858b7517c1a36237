# Set-up shared by bench/tda/round_new_relevant.sh and bench/tda/crawler_comparison.sh (issue 14):
# sourced, not run. Before sourcing set `s` (the evolve/crawl seed S) and
# DEFAULT_OUT (the script's run directory root). Defines:
#   HOSTS, SCOPE    the 10 dev-web hosts of the experiments, as --include-host
#   BIN, SHARED     topicrawl binary, the shared corpus root
#   E, R            the evolved web EVO/sS and this seed's run directory OUT/sS
#                   (R is emptied and created, unless KEEP is set: then a
#                   script keeps what an earlier run of it finished)
#   H, L, SEEDS     dev homes, dev-networking labels, R/seeds.tsv (the 10 hosts' homes)
#   KW              dev-networking's keywords as a TOML inline table body
#   serve K         serves round K of E on this script's two free ports and
#                   prints the crawl flags (one served directory per run)
#   stop_web        stops E's server
#   t CMD...        runs CMD, appending "user sys wall" to R/times.txt
# 10 of the 15 hosts: the machine is shared, the whole web is ~50k fetches a
# round; rust-doc's 32k pages, the kernel and the two hosts without networking
# pages are left out.
HOSTS="www.erlang.org doc.qt.io httpd.apache.org docs.python.org docs.djangoproject.com git-scm.com www.postgresql.org nodejs.org www.sqlite.org cmake.org"
BIN=${BIN:-build/topicrawl}
SHARED=${SHARED:-../shared}; [ -d "$SHARED" ] || SHARED=../../shared  # a worktree under /work/wt
E=${EVO:-/work/webs/tda-dev-evo}/s$s
R=${OUT:-$DEFAULT_OUT}/s$s
H=$SHARED/corpus/homes/dev-homes.tsv
L=$SHARED/corpus/labels/dev-networking.tsv
free_port() { python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])'; }
PORT=$(free_port); TLS=$(free_port)
serve() { $BIN web serve --dir "$E" --round "$1" --port "$PORT" --tls-port "$TLS" 2>/dev/null | sed -n 's/^crawl-args: //p' | tail -1; }
stop_web() { $BIN web stop --dir "$E" > /dev/null 2>&1; }
[ -n "${KEEP:-}" ] || rm -rf "$R"; mkdir -p "$R"
KW="$(awk -F'\t' 'NF >= 2 && $1 !~ /^#/ { printf "%s\"%s\" = %s", n++ ? ", " : "", $1, $2 }' $SHARED/corpus/topics/dev-networking.txt)"
SEEDS=$R/seeds.tsv; head -1 $H > $SEEDS; SCOPE=""
for h in $HOSTS; do awk -F'\t' -v h="$h" '$1 == h' $H >> $SEEDS; SCOPE="$SCOPE --include-host $h"; done
t() { /usr/bin/time -f "%U %S %e" -a -o "$R/times.txt" "$@"; }
[ -f "$R/times.txt" ] || echo "# arm round user sys wall" > "$R/times.txt"
