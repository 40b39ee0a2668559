"""The layering, checked by tools rather than stated in prose.

- import-linter's contracts in pyproject.toml (layers tui > annotation > db > core; the
  headless packages never load a terminal library; only core.llm imports litellm; db holds
  no orchestration; the engine imports no metric and no metric an agent or the engine;
  annotation reaches the store only through core.ports; the app never imports the command
  line; screens reach the app through AppServices; widgets touch no database or model).
- No import loop anywhere in our packages: the whole import graph (also imports inside
  functions) is walked for cycles.
- In a fresh interpreter, every module of core, db and annotation imports without textual,
  rich, tui or litellm coming along (a batch run, an analysis and a migration need no
  terminal).
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
PACKAGES = ("core", "db", "annotation", "tui")


def test_import_contracts_hold() -> None:
    lint = Path(sys.executable).with_name("lint-imports")
    out = subprocess.run([str(lint), "--no-cache"], cwd=ROOT, capture_output=True, text=True)
    assert out.returncode == 0, out.stdout[-4000:] + out.stderr[-2000:]
    assert " broken." in out.stdout and "0 broken" in out.stdout


def _cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """Strongly connected components of more than one module (Tarjan, iterative)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[list[str]] = []
    counter = 0
    for root in sorted(graph):
        if root in index:
            continue
        work = [(root, iter(sorted(graph[root])))]
        index[root] = low[root] = counter
        counter += 1
        stack.append(root)
        on_stack.add(root)
        while work:
            node, children = work[-1]
            child = next(children, None)
            if child is not None:
                if child not in index:
                    index[child] = low[child] = counter
                    counter += 1
                    stack.append(child)
                    on_stack.add(child)
                    work.append((child, iter(sorted(graph.get(child, ())))))
                elif child in on_stack:
                    low[node] = min(low[node], index[child])
                continue
            work.pop()
            if work:
                low[work[-1][0]] = min(low[work[-1][0]], low[node])
            if low[node] == index[node]:
                component = []
                while True:
                    member = stack.pop()
                    on_stack.discard(member)
                    component.append(member)
                    if member == node:
                        break
                if len(component) > 1:
                    found.append(sorted(component))
    return found


def test_the_cycle_finder_finds_a_loop() -> None:
    assert _cycles({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}) == [["a", "b", "c"]]
    assert _cycles({"a": {"b"}, "b": set()}) == []


def test_no_import_loops() -> None:
    import grimp

    graph = grimp.build_graph(*PACKAGES, cache_dir=None)
    edges = {m: {i for i in graph.find_modules_directly_imported_by(m)
                 if i.split(".")[0] in PACKAGES} for m in graph.modules}
    assert len(edges) > 100
    # A package imports its own submodules when they are imported; that is not a loop.
    for module, imported in edges.items():
        imported.discard(module)
        if module in PACKAGES or any(m.startswith(module + ".") for m in edges):
            edges[module] = {i for i in imported if not i.startswith(module + ".")}
    assert _cycles(edges) == []


def test_headless_packages_load_without_a_terminal_library() -> None:
    modules = []
    for pkg in ("core", "db", "annotation"):
        for path in sorted((ROOT / pkg).rglob("*.py")):
            rel = path.relative_to(ROOT).with_suffix("")
            parts = rel.parts[:-1] if rel.name == "__init__" else rel.parts
            modules.append(".".join(parts))
    code = (
        "import importlib, sys\n"
        f"for m in {modules!r}: importlib.import_module(m)\n"
        "bad = sorted(m for m in sys.modules if m.split('.')[0] in "
        "('textual', 'rich', 'tui', 'litellm'))\n"
        "print(bad)\n"
    )
    out = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True,
                         text=True, check=True)
    assert len(modules) > 10
    assert out.stdout.strip() == "[]"
