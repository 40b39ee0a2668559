"""All SQL lives in `db/`: the app and the command line read and write through the store and
the use cases. The check reads the source: no SQL statement in a string, no call that runs
SQL or reaches a table (`.execute(`, `rows_where`, `count_where`, `db[...]`), no sqlite3
connection."""

from __future__ import annotations

import ast
import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
# A statement as the repositories write them: the keyword in capitals, then what follows.
SQL = re.compile(r"\b(SELECT\s+\S|INSERT\s+(OR\s+\w+\s+)?INTO|UPDATE\s+\w+\s+SET|DELETE\s+FROM"
                 r"|PRAGMA\s+\w)")
TABLE_CALLS = {"execute", "executemany", "executescript", "rows_where", "count_where",
               "delete_where", "connect"}


def sql_in(path: Path, root: Path = ROOT) -> list[str]:
    """Where a module holds SQL or reaches a table directly: 'file:line what'."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    rel = path.relative_to(root)
    # Imported names: `runs.execute(...)` is the run use case, not a cursor.
    imported = {(a.asname or a.name).split(".")[0] for node in ast.walk(tree)
                if isinstance(node, ast.Import | ast.ImportFrom) for a in node.names}
    found = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Constant) and isinstance(node.value, str) \
                and SQL.search(node.value):
            found.append(f"{rel}:{node.lineno} SQL text")
        elif isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) \
                and node.func.attr in TABLE_CALLS \
                and not (isinstance(node.func.value, ast.Name) and node.func.value.id in imported):
            found.append(f"{rel}:{node.lineno} .{node.func.attr}(")
        elif isinstance(node, ast.Subscript) and isinstance(node.value, ast.Attribute | ast.Name) \
                and (getattr(node.value, "attr", None) or getattr(node.value, "id", None)) == "db":
            found.append(f"{rel}:{node.lineno} db[...]")
    return found


def test_the_checker_sees_sql(tmp_path: Path) -> None:
    # Each form it must catch, in a throwaway module.
    probe = tmp_path / "probe.py"
    probe.write_text(
        "from core.usecases import runs\n"
        "def f(db, conn):\n"
        "    runs.execute(db, None)\n"
        "    db.execute('SELECT id FROM runs')\n"
        "    db['cases'].count_where('id = ?', [1])\n"
        "    return self.db['turns'], 'UPDATE runs SET status = 1', conn.connect('x')\n",
        encoding="utf-8")
    hits = sql_in(probe, tmp_path)
    assert len(hits) == 7, hits  # two SQL texts, three calls, two db[...]
    assert sql_in(ROOT / "tui" / "app" / "widgets" / "tables.py") == []


def test_no_sql_in_the_app_the_command_line_or_annotation() -> None:
    hits = [hit for pkg in ("tui", "annotation") for path in sorted((ROOT / pkg).rglob("*.py"))
            for hit in sql_in(path)]
    assert hits == []


def test_no_sql_in_core() -> None:
    hits = [hit for path in sorted((ROOT / "core").rglob("*.py")) for hit in sql_in(path)]
    assert hits == []
