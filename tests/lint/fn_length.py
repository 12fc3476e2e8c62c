#!/usr/bin/env python3
"""Fail when a non-test function in shared/*/src is longer than the limit.

Long functions hide their steps; the house rule is at most 120 lines from the
`fn` line to the closing brace. Test code is exempt: `#[cfg(test)]` items,
`#[test]` functions, `*_tests.rs` files and the test kit (`shared/testkit`: the
contract suites and test doubles, a dev-dependency only).

Usage: tests/lint/fn_length.py [--limit N] [--top K]   (from the repository root)
Prints the K longest functions; exits 1 if any is over the limit.
"""

import argparse
import pathlib
import re
import sys

LIMIT = 120


def strip(src: str) -> str:
    """The source with comments, strings and char literals blanked (newlines kept)."""
    out = []
    i, n = 0, len(src)
    while i < n:
        c = src[i]
        if src.startswith("//", i):
            j = src.find("\n", i)
            j = n if j < 0 else j
            out.append(" " * (j - i))
            i = j
        elif src.startswith("/*", i):
            depth, j = 1, i + 2
            while j < n and depth:
                if src.startswith("/*", j):
                    depth, j = depth + 1, j + 2
                elif src.startswith("*/", j):
                    depth, j = depth - 1, j + 2
                else:
                    j += 1
            out.append(re.sub(r"[^\n]", " ", src[i:j]))
            i = j
        elif m := re.match(r'b?r(#*)"', src[i:]):
            end = '"' + m.group(1)
            j = src.find(end, i + m.end())
            j = n if j < 0 else j + len(end)
            out.append(re.sub(r"[^\n]", " ", src[i:j]))
            i = j
        elif c == '"' or src.startswith('b"', i):
            j = i + (2 if c == "b" else 1)
            while j < n and src[j] != '"':
                j += 2 if src[j] == "\\" else 1
            j += 1
            out.append(re.sub(r"[^\n]", " ", src[i:j]))
            i = j
        elif c == "'" and (m := re.match(r"'(\\.[^']*|[^\\'])'", src[i:])):
            out.append(" " * m.end())
            i += m.end()
        else:
            out.append(c)
            i += 1
    return "".join(out)


def block_end(text: str, start: int) -> int:
    """Index just after the brace block opening at `start`."""
    depth = 0
    for j in range(start, len(text)):
        if text[j] == "{":
            depth += 1
        elif text[j] == "}":
            depth -= 1
            if depth == 0:
                return j + 1
    return len(text)


def body_start(text: str, at: int) -> int | None:
    """Index of the `{` opening the item starting at `at`, or None for a `;` declaration."""
    parens = 0
    for j in range(at, len(text)):
        c = text[j]
        if c in "([":
            parens += 1
        elif c in ")]":
            parens -= 1
        elif parens == 0 and c == ";":
            return None
        elif parens == 0 and c == "{":
            return j
    return None


ITEM = re.compile(r"#\s*\[[^\]]*\]|\bfn\s+(\w+)|\b(mod|impl)\b")
TEST_ATTR = re.compile(r"#\s*\[\s*(cfg\s*\(\s*test\s*\)|(\w+::)?test\b)")


def functions(path: pathlib.Path):
    """(name, first line, length) of every non-test function in one file."""
    text = strip(path.read_text(encoding="utf-8"))
    skip_until, pending_test = -1, False
    for m in ITEM.finditer(text):
        if m.start() < skip_until:
            continue
        if m.group(0).startswith("#"):
            pending_test = pending_test or bool(TEST_ATTR.match(m.group(0)))
            continue
        is_test, pending_test = pending_test, False
        open_at = body_start(text, m.end())
        if open_at is None:
            continue
        end = block_end(text, open_at)
        if is_test:
            skip_until = end
            continue
        if m.group(1):
            first = text.count("\n", 0, m.start()) + 1
            last = text.count("\n", 0, end - 1) + 1
            yield m.group(1), first, last - first + 1


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--limit", type=int, default=LIMIT)
    ap.add_argument("--top", type=int, default=5)
    args = ap.parse_args()
    found = []
    for path in sorted(pathlib.Path("shared").glob("*/src/**/*.rs")):
        if path.parts[1] == "testkit" or path.name.endswith("_tests.rs"):
            continue
        found += [(length, f"{path}:{line}", name) for name, line, length in functions(path)]
    found.sort(reverse=True)
    for length, where, name in found[: args.top]:
        print(f"{length:5} lines  {name}  {where}")
    over = [f for f in found if f[0] > args.limit]
    for length, where, name in over:
        print(f"error: {name} at {where} is {length} lines (limit {args.limit})", file=sys.stderr)
    return 1 if over else 0


if __name__ == "__main__":
    sys.exit(main())
