"""Counts the conformance runs and checks that the baseline is minimal.

Usage: summarize.py BASELINE_YAML REQUIREMENTS_DIR REVISION=RESULTS_DIR...

For each REVISION it reads the suite's `-o` directory (one
`server-<scenario>-<time>/checks.json` per scenario), keeps the scenarios that
REQUIREMENTS_DIR/REVISION.yaml scores, and prints passed / baseline / total:
a check is passed when its status is SUCCESS, baseline when it failed (FAILURE or
WARNING, as the suite's baseline logic counts them) and the baseline names it or
its scenario, unexpected otherwise; INFO and SKIPPED are counted apart.

The suite itself fails a run on an unexpected failure and on a baselined check
that now passes. It silently ignores an entry whose check did not run at all, so
this script fails (exit 1) when a baseline entry matched no failure in any run:
every entry must be live, which is what makes removing one fail the stage.
Standard library only; both YAML files are the flat lists they are.
"""

from __future__ import annotations

import json
import re
import sys
from pathlib import Path


def yaml_list(path: Path, key: str) -> list[str]:
    """The `- item` entries under the top-level `key:` (comments and blank lines skipped)."""
    items: list[str] = []
    inside = False
    for raw in path.read_text(encoding="utf-8").splitlines():
        line = "" if raw.lstrip().startswith("#") else raw.split(" #", 1)[0].rstrip()
        if not line:
            continue
        if not line.startswith((" ", "-")):
            inside = line == f"{key}:"
            continue
        m = re.match(r"^\s*-\s+(\S+)\s*$", line)
        if inside and m:
            items.append(m.group(1).strip("'\""))
    return items


def load_runs(results: Path) -> dict[str, list[dict]]:
    runs: dict[str, list[dict]] = {}
    for checks in sorted(results.glob("server-*/checks.json")):
        scenario = re.sub(r"^server-|-\d{4}-\d{2}-\d{2}T[\d-]+Z$", "", checks.parent.name)
        runs[scenario] = json.loads(checks.read_text(encoding="utf-8"))
    return runs


def main() -> int:
    baseline, requirements = Path(sys.argv[1]), Path(sys.argv[2])
    entries = yaml_list(baseline, "server")
    used: set[str] = set()
    ok = True
    for arg in sys.argv[3:]:
        revision, results = arg.split("=", 1)
        scored = yaml_list(requirements / f"{revision}.yaml", "server")
        runs = load_runs(Path(results))
        passed = baselined = unexpected = info = 0
        clean = with_baseline = broken = 0
        for scenario in scored:
            checks = runs.get(scenario)
            if checks is None:
                print(f"  {revision}: scenario {scenario} did not run", file=sys.stderr)
                broken += 1
                ok = False
                continue
            bad = expected = 0
            for c in checks:
                status, key = c.get("status"), f"{scenario}:{c.get('id')}"
                if status == "SUCCESS":
                    passed += 1
                elif status in ("FAILURE", "WARNING"):
                    entry = scenario if scenario in entries else key if key in entries else None
                    if entry:
                        used.add(entry)
                        baselined += 1
                        expected += 1
                    else:
                        print(f"  {revision}: unexpected {status} {key}: {c.get('errorMessage', '')}",
                              file=sys.stderr)
                        unexpected += 1
                        bad += 1
                else:
                    info += 1
            if bad:
                broken += 1
            elif expected:
                with_baseline += 1
            else:
                clean += 1
        print(f"conformance {revision}: checks {passed} passed / {baselined} baseline / "
              f"{passed + baselined + unexpected} total ({unexpected} unexpected, {info} info or skipped); "
              f"scenarios {clean} clean / {with_baseline} with baselined checks / {broken} failing "
              f"of {len(scored)} scored")
        ok = ok and unexpected == 0
    dead = [e for e in entries if e not in used]
    for e in dead:
        print(f"  baseline entry matched no failure in any run (remove it): {e}", file=sys.stderr)
    return 0 if ok and not dead else 1


if __name__ == "__main__":
    sys.exit(main())
