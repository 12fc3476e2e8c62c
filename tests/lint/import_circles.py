#!/usr/bin/env python3
"""Fail when the modules of a crate in shared/*/src import each other in a circle.

A module's imports are the `crate::`, `super::` and `self::` paths in its non-test
code (`use` lists expanded). An import from module X to module Y counts between the
two children of their closest common module that hold X and Y: `ledger::edit`
reaching `ledger::record::view` is the edge edit -> record inside `ledger`. A child
reaching its parent's own items (the `use super::*` hub) is not an edge: the parent
is the module's context, not a sibling. A circle is a set of siblings that reach
each other (a strongly connected component of more than one); each is printed with
one place per edge, so the way to break it shows.

Two more rules hold in the ledger. An operation is a module whose `impl Ledger` block
has a `pub` method (what the tools call): every operation lives in `crate::ledger::ops`
(apart from the CORE modules, which every call into a vault goes through: the roster
and the vault it resolves, the due postings that run first), and an operation never
imports another; what several operations need lives in a helper module beside `ops`.

Usage: tests/lint/import_circles.py [ROOT]   (from the repository root; exits 1 on a circle)
"""

import pathlib
import re
import sys

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parent))
from fn_length import TEST_ATTR, block_end, body_start, strip  # noqa: E402

USE = re.compile(r"\buse\s+([^;]*);")
PATH = re.compile(r"\b(crate|super|self)((?:\s*::\s*\w+)+)")


def module_of(src: pathlib.Path, path: pathlib.Path) -> tuple[str, ...]:
    parts = list(path.relative_to(src).with_suffix("").parts)
    if parts[-1] in ("lib", "main", "mod"):
        parts.pop()
    return tuple(parts)


def without_tests(text: str) -> str:
    """`text` with every `#[cfg(test)]` / `#[test]` item blanked (newlines kept)."""
    out = list(text)
    for m in TEST_ATTR.finditer(text):
        attr_end = text.find("]", m.end()) + 1
        at = body_start(text, attr_end)
        end = block_end(text, at) if at is not None else text.find(";", attr_end) + 1
        for j in range(m.start(), end):
            if out[j] != "\n":
                out[j] = " "
    return "".join(out)


def expand(tree: str) -> list[str]:
    """The paths of one `use` tree: `a::{b, c::{d}}` -> a::b, a::c::d."""
    tree = re.sub(r"\s+", "", tree)
    if "{" not in tree:
        return [tree]
    head, inner = tree.split("{", 1)
    inner = inner[: inner.rfind("}")]
    parts, depth, cur = [], 0, ""
    for c in inner:
        if c == "," and depth == 0:
            parts.append(cur)
            cur = ""
            continue
        depth += c == "{"
        depth -= c == "}"
        cur += c
    parts.append(cur)
    return [p for part in parts if part for p in expand(head + part)]


def resolve(here: tuple[str, ...], is_dir: bool, path: str) -> tuple[str, ...] | None:
    """The absolute module path `path` names from module `here`, or None if external."""
    segs = [s for s in re.split(r"::", path) if s]
    segs = [s.split(" as ")[0] for s in segs]
    if not segs or segs[0] not in ("crate", "super", "self"):
        return None
    if segs[0] == "crate":
        return tuple(segs[1:])
    base = list(here)
    while segs and segs[0] in ("super", "self"):
        if segs.pop(0) == "super":
            if not base:
                return None
            base.pop()
    return tuple(base + [s for s in segs if s not in ("*", "self")])


def edges_of(src: pathlib.Path):
    """(from module, to module, file:line) for every import in one crate."""
    files = {module_of(src, p): p for p in sorted(src.glob("**/*.rs")) if not p.name.endswith("_tests.rs")}
    for here, path in files.items():
        text = without_tests(strip(path.read_text(encoding="utf-8")))
        found = []
        for m in USE.finditer(text):
            body = re.sub(r"\s+as\s+\w+", "", m.group(1))
            found += [(m.start(), p) for p in expand(body)]
            text = text[: m.start()] + re.sub(r"[^\n]", " ", m.group(0)) + text[m.end() :]
        found += [(m.start(), m.group(0)) for m in PATH.finditer(text)]
        for at, p in found:
            target = resolve(here, path.name == "mod.rs", p)
            if target is None:
                continue
            while target and target not in files:
                target = target[:-1]
            line = text.count("\n", 0, at) + 1
            yield here, target, f"{path}:{line}"


def sibling_edge(a: tuple[str, ...], b: tuple[str, ...]):
    """(scope, child holding a, child holding b), or None when one holds the other."""
    n = 0
    while n < min(len(a), len(b)) and a[n] == b[n]:
        n += 1
    if n == len(a) or n == len(b):
        return None
    return a[:n], a[n], b[n]


def circles(graph: dict[str, set[str]]) -> list[list[str]]:
    """Strongly connected components of more than one node (Tarjan)."""
    index, low, stack, on, out, counter = {}, {}, [], set(), [], [0]

    def visit(v):
        index[v] = low[v] = counter[0]
        counter[0] += 1
        stack.append(v)
        on.add(v)
        for w in sorted(graph.get(v, ())):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            comp = []
            while True:
                w = stack.pop()
                on.discard(w)
                comp.append(w)
                if w == v:
                    break
            if len(comp) > 1:
                out.append(sorted(comp))

    for v in sorted(graph):
        if v not in index:
            visit(v)
    return out


# The ledger modules with public methods that serve every operation rather than a tool.
CORE = {"roster", "resolve", "posting"}
OPERATIONS_SCOPE = ("ledger", "ops")
PUBLIC_METHOD = re.compile(r"^impl Ledger \{(?:.|\n)*?^    pub (?:async )?fn ", re.M)


def operations(src: pathlib.Path) -> tuple[set[str], list[str]]:
    """The ledger's operation modules (a `pub` method in an `impl Ledger` block) under
    `ledger::ops`, and the files outside it that have one (CORE apart)."""
    out, strays = set(), []
    for path in sorted((src / "ledger").glob("**/*.rs")):
        here = module_of(src, path)
        if len(here) < 2 or here[1] in CORE:
            continue
        if not PUBLIC_METHOD.search(without_tests(strip(path.read_text(encoding="utf-8")))):
            continue
        if here[:2] == OPERATIONS_SCOPE and len(here) >= 3:
            out.add(here[2])
        elif here != ("ledger",):
            strays.append(str(path))
    return out, strays


def main() -> int:
    root = pathlib.Path(sys.argv[1] if len(sys.argv) > 1 else ".")
    found = 0
    for src in sorted(root.glob("shared/*/src")):
        scopes: dict[tuple[str, ...], dict[str, dict[str, str]]] = {}
        for a, b, where in edges_of(src):
            e = sibling_edge(a, b)
            if e:
                scope, x, y = e
                scopes.setdefault(scope, {}).setdefault(x, {}).setdefault(y, where)
        ops, strays = operations(src) if (src / "ledger").is_dir() else (set(), [])
        for path in strays:
            found += 1
            print(f"operation outside ledger/ops: {path} has a pub method on Ledger")
        for x, ys in sorted(scopes.get(OPERATIONS_SCOPE, {}).items()):
            for y, where in sorted(ys.items()):
                if x in ops and y in ops:
                    found += 1
                    print(f"operation {x} imports operation {y} in {src.parent.name} ({where})")
        for scope, graph in sorted(scopes.items()):
            for comp in circles({x: set(ys) for x, ys in graph.items()}):
                found += 1
                name = "::".join(("crate",) + scope)
                print(f"circle in {src.parent.name} {name}: {' <-> '.join(comp)}")
                for x in comp:
                    for y in sorted(set(graph.get(x, {})) & set(comp)):
                        print(f"  {x} -> {y}  ({graph[x][y]})")
    if not found:
        print("no import circles in shared/*/src, and no ledger operation imports another")
    return 1 if found else 0


if __name__ == "__main__":
    sys.exit(main())
