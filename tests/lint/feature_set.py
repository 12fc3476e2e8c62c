#!/usr/bin/env python3
"""Fail when the README's run command would build another feature set than the tests.

`tests/run.sh` builds the workspace with every feature and every dev-dependency;
`cargo run -p dochiya-mcp` resolves the binary's normal dependencies only. Cargo
compiles a package once per feature set, so any package whose features differ between
the two (a dev-dependency turning on a feature of a shared dependency, or a feature of
a crate of ours) is compiled again by the run command, with everything above it
(decision 055). `cargo tree` answers without building, in seconds.

Usage: tests/lint/feature_set.py   (from the repository root; exits 1 naming each package)
"""

import subprocess
import sys


def features(*args: str) -> dict[str, str]:
    """Each package of `cargo tree ARGS` and its features, deduplicated."""
    out = subprocess.run(
        ["cargo", "tree", "--locked", "--prefix", "none", "-f", "{p}|{f}", *args],
        check=True,
        capture_output=True,
        text=True,
    ).stdout
    seen: dict[str, str] = {}
    for line in out.splitlines():
        line = line.removesuffix(" (*)")
        if "|" not in line:
            continue
        package, feats = line.split("|", 1)
        # A proc-macro or build script is compiled for the host, apart from the rest.
        seen.setdefault(package, feats)
    return seen


def main() -> int:
    run = features("-p", "dochiya-mcp", "-e", "normal,build")
    tests = features("--workspace", "--all-features")
    differ = [(p, run[p], tests.get(p, "")) for p in sorted(run) if tests.get(p) != run[p]]
    for package, by_run, by_tests in differ:
        print(
            f"{package}: `cargo run -p dochiya-mcp` builds it with [{by_run}], the tests with "
            f"[{by_tests}]: pin the difference in functions/mcp/Cargo.toml (decision 055)"
        )
    if differ:
        print(f"{len(differ)} package(s) would be compiled again by the README's run command")
        return 1
    print(f"one feature set: the {len(run)} packages of the server build alike for both README commands")
    return 0


if __name__ == "__main__":
    sys.exit(main())
