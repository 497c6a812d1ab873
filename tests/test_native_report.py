#!/usr/bin/env python3
"""scripts/native_vs_lifted.py report over a recorded device run
(docs/results/h100-native-vs-lifted-versioned-2026-12-06.txt: 14 OpenCL C
programs and 6 GLSL shaders): the table, the CSV and
the SVG agree with the run's own lines, byte counts aside. Exit 0 or 1."""
import csv
import os
import re
import subprocess
import sys
import tempfile
import xml.dom.minidom

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
RUN = os.path.join(ROOT, "docs", "results", "h100-native-vs-lifted-versioned-2026-12-06.txt")


def main():
    with tempfile.TemporaryDirectory() as d:
        r = subprocess.run([sys.executable, os.path.join(ROOT, "scripts", "native_vs_lifted.py"), "report", RUN, d],
                           capture_output=True, text=True)
        if r.returncode:
            print(r.stdout, r.stderr)
            return 1
        rows = list(csv.DictReader(open(os.path.join(d, "native-vs-lifted.csv"))))
        timed = [x for x in rows if x["ratio"]]
        # the run's own match lines: one a timed configuration
        matches = sum(1 for line in open(RUN) if re.match(r"\S+\.w(32|64)\.(lanes|wave)\s+(lanes|wave)\s.*match$", line))
        svg = xml.dom.minidom.parse(os.path.join(d, "native-vs-lifted.svg"))
        points = [c for c in svg.getElementsByTagName("circle") if c.getAttribute("class") == "point"]
        md = open(os.path.join(d, "native-vs-lifted.md")).read()
        ok = len(rows) == 20 * 4 and len(timed) == matches == len(points) == 80 and \
            "lanes, wave64 k = 2: median 1.11x" in md and "  - OpenCL C: median 1.01x" in md
        for x in timed:  # each ratio is lifted over native as printed
            ok = ok and abs(float(x["lifted_ms"]) / float(x["native_ms"]) - float(x["ratio"])) < 1e-3
        print(f"native_vs_lifted report: {len(rows)} rows, {len(timed)} timed, {matches} matches in the run, "
              f"{len(points)} points: {'ok' if ok else 'WRONG'}")
        return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
