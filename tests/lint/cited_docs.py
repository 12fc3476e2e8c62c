#!/usr/bin/env python3
"""Fail when a document or path cited in the repository is not in the repository.

A citation is a Markdown link to a local file (`[text](path)`, anchors dropped), any
`NAME.md` / `path/NAME.md`, or any path under one of the repository's top folders
(`shared/…`, `docs/…`, `tests/…`) named in docs, code, scripts or configuration. A
link resolves from the citing file's folder; another path from the citing file's
folder, its crate's folder or the repository root, and may be a prefix (`env-*.env`
is cited as `fixtures/env`); a bare `NAME.md` may live in any folder (prose says
`tools.md` for `docs/tools.md`). The docs must stand alone, so every cited document
has to be a file the repository tracks.

Usage: tests/lint/cited_docs.py   (from the repository root; exits 1 on a miss)
"""

import os
import pathlib
import re
import subprocess
import sys

SELF = pathlib.Path(os.path.relpath(__file__))
SCANNED = {".md", ".rs", ".sh", ".py", ".toml", ".yml", ".yaml", ".mjs", ".ts", ".json"}
LINK = re.compile(r"\]\(([^)\s]+)\)")
CITED_MD = re.compile(r"(?<![\w./-])((?:[\w.-]+/)*[\w.-]+\.md)\b")
CITED_PATH = re.compile(r"(?<![\w./-])((?:shared|tests|functions|bench|infra|docs)/[\w./-]*\w)")


def tracked() -> list[pathlib.Path]:
    out = subprocess.run(["git", "ls-files", "-z"], capture_output=True, check=True).stdout
    return [pathlib.Path(p) for p in out.decode().split("\0") if p]


def main() -> int:
    files = tracked()
    present = set(files)
    by_name: dict[str, list[pathlib.Path]] = {}
    for f in files:
        by_name.setdefault(f.name, []).append(f)

    def crate_of(f: pathlib.Path) -> pathlib.Path:
        for d in f.parents:
            if (d / "Cargo.toml") in present:
                return d
        return pathlib.Path(".")

    def exists(base: pathlib.Path, cited: str, bare_ok: bool, prefix_ok: bool = False) -> bool:
        target = cited.split("#", 1)[0]
        if not target:
            return True
        for root in (base, crate_of(base / "x"), pathlib.Path(".")):
            path = os.path.normpath(root / target)
            if pathlib.Path(path) in present or any(str(f).startswith(path + "/") for f in files):
                return True
            if prefix_ok and any(str(f).startswith(path) for f in files):
                return True
        return bare_ok and any(str(f).endswith(target) for f in by_name.get(pathlib.Path(target).name, []))

    misses = []
    for f in files:
        # Generated files cite nothing: a snapshot, and an npm lockfile (which copies
        # each package's own metadata, such as the folders of its workspaces).
        generated = f.name.endswith(".snapshot.json") or f.name == "package-lock.json"
        if f.suffix not in SCANNED or generated or f == SELF:
            continue
        text = f.read_text(encoding="utf-8", errors="replace")
        for no, line in enumerate(text.splitlines(), 1):
            for m in LINK.finditer(line):
                cited = m.group(1)
                if re.match(r"^[a-z][a-z0-9+.-]*:", cited) or cited.startswith("#"):
                    continue
                if f.suffix == ".md" and not exists(f.parent, cited, bare_ok=False):
                    misses.append(f"{f}:{no}: link to {cited}, not in the repository")
            for m in CITED_MD.finditer(line):
                cited = m.group(1)
                if not exists(f.parent, cited, bare_ok=True):
                    misses.append(f"{f}:{no}: cites {cited}, not in the repository")
            for m in CITED_PATH.finditer(line):
                cited = m.group(1).rstrip(".")
                if "target" in pathlib.Path(cited).parts:
                    continue  # build output, never tracked
                if not exists(f.parent, cited, bare_ok=False, prefix_ok=True):
                    misses.append(f"{f}:{no}: cites {cited}, not in the repository")
    for miss in misses:
        print(miss)
    return 1 if misses else 0


if __name__ == "__main__":
    sys.exit(main())
