"""The layering is enforced here: core imports none of our packages and never textual/rich;
db and annotation never import tui; only core/llm.py imports litellm."""

from __future__ import annotations

import ast
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]

FORBIDDEN = {
    "core": {"db", "annotation", "tui", "textual", "rich", "textual_serve"},
    "db": {"annotation", "tui", "textual", "rich", "textual_serve"},
    "annotation": {"tui", "textual", "rich", "textual_serve"},
}


def _imports(path: Path) -> set[str]:
    tree = ast.parse(path.read_text(encoding="utf-8"))
    names = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            names.update(a.name.split(".")[0] for a in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            names.add(node.module.split(".")[0])
    return names


def test_packages_import_only_what_their_layer_allows() -> None:
    bad = []
    for package, forbidden in FORBIDDEN.items():
        for path in (ROOT / package).rglob("*.py"):
            hit = _imports(path) & forbidden
            if hit:
                bad.append(f"{path.relative_to(ROOT)} imports {sorted(hit)}")
    assert bad == []


def test_only_core_llm_imports_litellm() -> None:
    users = sorted(str(p.relative_to(ROOT)) for pkg in ("core", "db", "annotation", "tui")
                   for p in (ROOT / pkg).rglob("*.py") if "litellm" in _imports(p))
    assert users in ([], ["core/llm.py"])


def test_headless_packages_load_without_a_terminal_library() -> None:
    # Import every module of core, db and annotation in a fresh interpreter, then check that
    # no terminal library (and not litellm) came along.
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
