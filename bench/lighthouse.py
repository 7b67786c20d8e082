"""Lighthouse (mobile defaults) against the app served locally, on Debian's Chromium.

    python bench/lighthouse.py [--runs 3] [--query ?game=klondike&deal=7] [--url URL]
                               [--no-compress] [--keep DIR]

`make lighthouse` installs the pinned Lighthouse into tools/lighthouse/node_modules (kept
out of the root package.json, so `make test` does not install it) and runs this. It serves
the repository with tools/serve.py on a free port (br/gzip as a host sends them) unless
--url is given, runs Lighthouse `--runs` times with its mobile defaults (simulated slow 4G,
4x CPU slowdown, a phone's screen), each on a new Chrome profile, and prints a Markdown
table: the four category scores and the main metrics of each run, then the medians.
`--keep DIR` keeps each run's JSON report. It asserts nothing.
Budgets (docs/architecture.md §8): performance >= 75, best practices 100, accessibility 100.
"""

from __future__ import annotations

import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from bench.startup import bench_arguments, load, serve_or_use  # noqa: E402
from tools.chromium import CHROMIUM  # noqa: E402

CLI = ROOT / "tools" / "lighthouse" / "node_modules" / "lighthouse" / "cli" / "index.js"
CHROME_FLAGS = "--headless=new --no-sandbox --disable-gpu"
# A busy machine sometimes makes Lighthouse give up on a DevTools call (a protocol
# timeout); such a run is tried again.
ATTEMPTS = 2
CATEGORIES = ("performance", "accessibility", "best-practices", "seo")
# (audit id, heading, divisor of its numeric value, decimals)
METRICS = (
    ("first-contentful-paint", "FCP s", 1000, 2),
    ("largest-contentful-paint", "LCP s", 1000, 2),
    ("total-blocking-time", "TBT ms", 1, 0),
    ("interactive", "TTI s", 1000, 2),
    ("speed-index", "SI s", 1000, 2),
    ("cumulative-layout-shift", "CLS", 1, 3),
    ("total-byte-weight", "MB", 1e6, 2),
)


def run_lighthouse(url: str, report: Path) -> dict:
    """One Lighthouse run of ``url``; the parsed JSON report (also written to ``report``)."""
    env = dict(os.environ, CHROME_PATH=os.environ.get("CHROME_PATH", CHROMIUM))
    command = ["node", str(CLI), url, "--output=json", f"--output-path={report}",
               f"--chrome-flags={CHROME_FLAGS}", "--quiet",
               f"--only-categories={','.join(CATEGORIES)}"]
    for attempt in range(1, ATTEMPTS + 1):
        report.unlink(missing_ok=True)
        run = subprocess.run(command, env=env, capture_output=True, text=True)
        if run.returncode == 0 and report.is_file():
            return json.loads(report.read_text())
        print(f"  lighthouse failed ({run.returncode}, attempt {attempt} of {ATTEMPTS}): "
              f"{run.stderr.strip()[-600:]}", file=sys.stderr)
    raise SystemExit("lighthouse failed")


def figures(result: dict) -> dict[str, float | None]:
    """The category scores (0-100) and the metrics of one report, by heading."""
    row: dict[str, float | None] = {}
    for category in CATEGORIES:
        score = result["categories"].get(category, {}).get("score")
        row[category] = None if score is None else round(score * 100)
    for audit_id, heading, scale, _ in METRICS:
        value = result["audits"].get(audit_id, {}).get("numericValue")
        row[heading] = None if value is None else value / scale
    tasks = result["audits"].get("long-tasks", {}).get("details", {}).get("items", [])
    row["longest task ms"] = max((t.get("duration", 0) for t in tasks), default=0)
    if result.get("runtimeError"):
        print(f"  runtime error: {result['runtimeError']}", file=sys.stderr)
    return row


def cell(value: float | None, decimals: int) -> str:
    return "-" if value is None else f"{value:.{decimals}f}"


def table(rows: list[dict[str, float | None]]) -> str:
    columns = [(c, 0) for c in CATEGORIES] + [(h, d) for _, h, _, d in METRICS]
    columns.append(("longest task ms", 0))
    lines = ["| run | " + " | ".join(name for name, _ in columns) + " |",
             "|---|" + "---:|" * len(columns)]
    for number, row in enumerate(rows, 1):
        lines.append(f"| {number} | " + " | ".join(cell(row[n], d) for n, d in columns) + " |")
    if len(rows) > 1:
        medians = []
        for name, decimals in columns:
            values = [row[name] for row in rows if row[name] is not None]
            medians.append(cell(statistics.median(values) if values else None, decimals))
        lines.append("| median | " + " | ".join(medians) + " |")
    return "\n".join(lines)


def main() -> int:
    parser = bench_arguments(__doc__.splitlines()[0], 3, "?game=klondike&deal=7")
    parser.add_argument("--no-compress", dest="compress", action="store_false",
                        help="serve every file as it is (no br/gzip)")
    parser.add_argument("--keep", type=Path, help="keep the JSON reports in this folder")
    args = parser.parse_args()

    if not CLI.is_file():
        raise SystemExit("Lighthouse is not installed: run `make lighthouse`")
    if shutil.which("node") is None:
        raise SystemExit("node is missing")
    server, base = serve_or_use(args.url, compress=args.compress)
    url = f"{base}/{args.query}"
    version = json.loads((CLI.parent.parent / "package.json").read_text())["version"]
    print(f"Lighthouse {version}, mobile defaults, {url}, {args.runs} runs, "
          f"compression {'on' if args.compress else 'off'}, load average {load()}", flush=True)
    rows = []
    try:
        with tempfile.TemporaryDirectory(prefix="pp-lighthouse-") as folder:
            keep = args.keep or Path(folder)
            keep.mkdir(parents=True, exist_ok=True)
            for number in range(1, args.runs + 1):
                rows.append(figures(run_lighthouse(url, keep / f"run-{number}.json")))
                print(f"  run {number} done", flush=True)
    finally:
        if server is not None:
            server.shutdown()
            server.server_close()
    print(f"load average at the end {load()} (a busy machine stretches the tasks that "
          "Lighthouse multiplies by 4)")
    print(table(rows))
    return 0


if __name__ == "__main__":
    sys.exit(main())
