#!/usr/bin/env python3
"""Draws wl_bench_translate's table (--csv FILE) as an SVG: SPIR-V words a
guest instruction at -O2 against the program's guest instructions (log
scale), the lanes model at k = 2 (wave64) and k = 1 (wave32), and the wave
model where the table has it (--wave), with the median and the bounds of
issue 17 (60 a program, 30 the median) as lines. No libraries beyond Python's.

    build/wl_bench_translate --reps 1 --wave --csv bench.csv build/kernels
    scripts/plot_bench.py bench.csv bench.svg
"""
import csv
import math
import statistics
import sys

W, H, L, R, T, B = 900, 560, 70, 200, 30, 60


def main():
    if len(sys.argv) != 3:
        sys.exit(__doc__)
    rows = list(csv.DictReader(open(sys.argv[1])))
    if not rows:
        sys.exit(f"{sys.argv[1]}: no rows")
    series = {"lanes, wave64 (k = 2)": [], "lanes, wave32 (k = 1)": [], "wave model, wave64": [],
              "wave model, wave32": []}
    for r in rows:
        g = int(r["guest"])
        if g <= 0:
            continue
        lanes = "lanes, wave64 (k = 2)" if r["wave"] == "64" else "lanes, wave32 (k = 1)"
        series[lanes].append((g, float(r["o2_wpi"]), r["kernel"]))
        ww = int(r.get("wave_o2_words") or 0)
        if ww:
            series["wave model, wave" + r["wave"]].append((g, ww / g, r["kernel"]))
    pts = [p for s in series.values() for p in s]
    gx = [p[0] for p in pts]
    x0, x1 = math.log10(max(1, min(gx))), math.log10(max(gx)) + 0.05
    y1 = max(70.0, max(p[1] for p in pts) * 1.05)

    def X(g):
        return L + (math.log10(g) - x0) / max(1e-9, x1 - x0) * (W - L - R)

    def Y(v):
        return T + (1 - v / y1) * (H - T - B)

    colours = ["#1f77b4", "#2ca02c", "#d62728", "#ff7f0e"]
    out = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{W}" height="{H}" font-family="sans-serif" '
           f'font-size="12"><rect width="{W}" height="{H}" fill="white"/>']
    out.append(f'<line x1="{L}" y1="{H - B}" x2="{W - R}" y2="{H - B}" stroke="black"/>')
    out.append(f'<line x1="{L}" y1="{T}" x2="{L}" y2="{H - B}" stroke="black"/>')
    for e in range(int(math.floor(x0)), int(math.ceil(x1)) + 1):
        if x0 <= e <= x1:
            out.append(f'<line x1="{X(10**e):.1f}" y1="{H - B}" x2="{X(10**e):.1f}" y2="{H - B + 5}" stroke="black"/>'
                       f'<text x="{X(10**e):.1f}" y="{H - B + 18}" text-anchor="middle">{10**e:,}</text>')
    step = 10 if y1 <= 150 else 50 if y1 <= 800 else 200
    v = 0
    while v <= y1:
        out.append(f'<line x1="{L - 5}" y1="{Y(v):.1f}" x2="{L}" y2="{Y(v):.1f}" stroke="black"/>'
                   f'<text x="{L - 8}" y="{Y(v) + 4:.1f}" text-anchor="end">{v}</text>')
        v += step
    for bound, label in ((60, "60: a program's bound"), (30, "30: the median's bound")):
        if bound <= y1:
            out.append(f'<line x1="{L}" y1="{Y(bound):.1f}" x2="{W - R}" y2="{Y(bound):.1f}" stroke="#888" '
                       f'stroke-dasharray="4 3"/><text x="{W - R + 4}" y="{Y(bound) + 4:.1f}" fill="#555">{label}</text>')
    legend_y = T + 10
    for (name, s), c in zip(series.items(), colours):
        if not s:
            continue
        for g, v, k in s:
            out.append(f'<circle cx="{X(g):.1f}" cy="{Y(v):.1f}" r="3" fill="{c}" fill-opacity="0.7">'
                       f'<title>{k}: {g} instructions, {v:.1f} words each</title></circle>')
        med = statistics.median(v for _, v, _ in s)
        out.append(f'<circle cx="{W - R + 10}" cy="{legend_y + 80}" r="4" fill="{c}"/>'
                   f'<text x="{W - R + 18}" y="{legend_y + 84}">{name}: median {med:.1f}</text>')
        legend_y += 18
    out.append(f'<text x="{(L + W - R) / 2}" y="{H - 15}" text-anchor="middle">guest instructions (log scale)</text>')
    out.append(f'<text x="18" y="{(T + H - B) / 2}" transform="rotate(-90 18 {(T + H - B) / 2})" '
               f'text-anchor="middle">SPIR-V words a guest instruction, -O2</text>')
    out.append("</svg>")
    with open(sys.argv[2], "w") as f:
        f.write("\n".join(out) + "\n")
    print(f"{sys.argv[2]}: {len(pts)} points")


if __name__ == "__main__":
    main()
