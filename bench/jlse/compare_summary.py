#!/usr/bin/env python3
"""Summarises finished `topicrawl compare` runs for docs/strategies/jlse.md: mean ± sd of
harvest, recall, average harvest rate@N and average target recall@N (from
`topicrawl eval --at`), pages/CPU-second, and two SVG curves.

  bench/jlse/compare_summary.py LABELS OUT_PREFIX LABEL=COMPARE_DIR:STRATEGY ...
"""
import glob, os, re, statistics as st, subprocess, sys

TOPICRAWL = os.path.join(os.path.dirname(__file__), "..", "..", "build", "topicrawl")
AT = [500, 1000, 1500, 2000, 2500, 3000, 4000, 5000]
labels, prefix, specs = sys.argv[1], sys.argv[2], sys.argv[3:]
series = {}
lines = []

def ms(xs):
    return f"{st.mean(xs):.3f} ± {st.stdev(xs) if len(xs) > 1 else 0:.3f}"

for spec in specs:
    label, rest = spec.split("=", 1)
    d, strategy = rest.rsplit(":", 1)
    runs = []
    for run in sorted(glob.glob(f"{d}/runs/{strategy}-[0-9]*")):
        if not re.search(r"-\d+$", run):
            continue
        log = open(run + ".log").read() if os.path.exists(run + ".log") else ""
        fin = re.findall(r"crawl finished: (\d+) pages ok", log)
        if not fin:
            continue
        out = subprocess.run([TOPICRAWL, "eval", run, "--labels", labels, "--at",
                              ",".join(map(str, AT))], capture_output=True, text=True).stdout
        rows = {}
        for line in out.splitlines():
            f = line.split()
            if len(f) >= 12 and f[0].isdigit():
                rows[int(f[0])] = [float(f[i]) for i in (7, 8, 10, 11)]
        cpu = re.findall(r"cpu by thread: (.*)", log)[-1]
        secs = sum(float(x) for x in re.findall(r"([\d.]+) s", cpu))
        runs.append((rows, int(fin[-1]), secs))
    if not runs:
        continue
    pps = [r[1] / r[2] for r in runs]
    finals = [r[0][max(r[0])] for r in runs]
    lines.append(f"| {label} | {len(runs)} | {st.mean([r[1] for r in runs]):.0f} | "
                 f"{st.mean(pps):.0f} | {ms([f[1] for f in finals])} | {ms([f[0] for f in finals])} |")
    pts = {}
    for n in AT:
        vals = [r[0][n] for r in runs if n in r[0]]
        if len(vals) == len(runs):
            pts[n] = vals
    series[label] = (pts, runs)

with open(prefix + "-table.md", "w") as f:
    f.write("| strategy | runs | pages ok (mean) | pages per CPU-second | final recall | final harvest |\n"
            "|---|---:|---:|---:|---:|---:|\n")
    f.write("\n".join(lines) + "\n\n")
    for k, name in ((2, "average harvest rate@N"), (3, "average target recall@N"),
                    (0, "harvest@N"), (1, "recall@N")):
        f.write(f"**{name}** (mean ± sd over runs; blank: the crawl ended before N)\n\n")
        f.write("| strategy | " + " | ".join(str(n) for n in AT) + " |\n|---|" + "---:|" * len(AT) + "\n")
        for label, (pts, _) in series.items():
            f.write(f"| {label} | " + " | ".join(ms([v[k] for v in pts[n]]) if n in pts else ""
                                               for n in AT) + " |\n")
        f.write("\n")

COLORS = ["#1f77b4", "#d62728", "#2ca02c", "#9467bd", "#ff7f0e", "#8c564b", "#17becf"]
for k, name in ((2, "harvest"), (3, "recall")):
    W, H, L, B = 640, 400, 60, 40
    ymax = max([st.mean(v[k] for v in vals) for pts, _ in series.values() for vals in pts.values()] + [0.01]) * 1.1
    x = lambda n: L + (W - L - 20) * n / AT[-1]
    y = lambda v: H - B - (H - B - 20) * v / ymax
    svg = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{W}" height="{H}" font-family="sans-serif" font-size="12">',
           f'<rect width="{W}" height="{H}" fill="white"/>',
           f'<line x1="{L}" y1="{H-B}" x2="{W-20}" y2="{H-B}" stroke="black"/>',
           f'<line x1="{L}" y1="{H-B}" x2="{L}" y2="20" stroke="black"/>',
           f'<text x="{W/2}" y="{H-8}" text-anchor="middle">pages downloaded N</text>',
           f'<text x="14" y="{H/2}" transform="rotate(-90 14 {H/2})" text-anchor="middle">average {"harvest rate" if k == 2 else "target recall"}@N</text>']
    for n in AT:
        svg.append(f'<text x="{x(n)}" y="{H-B+15}" text-anchor="middle">{n}</text>')
    for i in range(5):
        v = ymax * i / 4
        svg.append(f'<text x="{L-5}" y="{y(v)+4}" text-anchor="end">{v:.2f}</text>')
    for j, (label, (pts, _)) in enumerate(series.items()):
        c = COLORS[j % len(COLORS)]
        p = " ".join(f"{x(n):.1f},{y(st.mean(v[k] for v in pts[n])):.1f}" for n in AT if n in pts)
        svg.append(f'<polyline points="{p}" fill="none" stroke="{c}" stroke-width="2"/>')
        svg.append(f'<text x="{L+10}" y="{30+15*j}" fill="{c}">{label}</text>')
    svg.append("</svg>")
    open(f"{prefix}-{name}.svg", "w").write("\n".join(svg) + "\n")
print(open(prefix + "-table.md").read())
