"""Agent Hospital repository: evolution experiments, their curve points, the memory each
arm built (versioned by training step) and frozen libraries."""

from __future__ import annotations

from typing import Any

from sqlite_utils import Database

from core.errors import InputError, NotFoundError
from core.ids import new_id
from core.records.agenthospital import Evolution, Library, Point
from core.transcript import utc_now
from db.jsoncol import dumps, loads

STATUSES = ("running", "finished", "interrupted", "failed")


def create_evolution(db: Database, *, name: str | None, config: dict[str, Any]) -> str:
    """Record a new evolution (status 'running'); its id."""
    eid = new_id("evo-")
    db.table("ah_evolutions").insert({"id": eid, "name": name or eid, "created_at": utc_now(),
                                      "status": "running", "config": dumps(config)})
    return eid


def set_evolution_status(db: Database, evolution_id: str, status: str) -> None:
    """running / finished / interrupted / failed."""
    if status not in STATUSES:
        raise ValueError(f"unknown evolution status {status!r}")
    ended = None if status == "running" else utc_now()
    db.execute("UPDATE ah_evolutions SET status = ?, finished_at = ? WHERE id = ?",
               [status, ended, evolution_id])


def _evolution(row: dict[str, Any]) -> Evolution:
    config = loads(row["config"], {})
    return Evolution(id=row["id"], name=row["name"], created_at=row["created_at"],
                     finished_at=row["finished_at"], status=row["status"],
                     config=config if isinstance(config, dict) else {})


def get_evolution(db: Database, ref: str) -> Evolution:
    """By id, else the newest of that name; NotFoundError."""
    rows = list(db.query("SELECT * FROM ah_evolutions WHERE id = ? OR name = ? "
                         "ORDER BY rowid DESC", [ref, ref]))
    exact = [r for r in rows if r["id"] == ref]
    if not rows:
        raise NotFoundError(f"no evolution '{ref}' (see `bedside evolve list`)")
    return _evolution((exact or rows)[0])


def list_evolutions(db: Database) -> list[Evolution]:
    """Every evolution, newest first."""
    return [_evolution(r) for r in db.query("SELECT * FROM ah_evolutions ORDER BY rowid DESC")]


def save_checkpoint(db: Database, evolution_id: str, arm: str, points: list[Point],
                    items: list[dict[str, Any]]) -> None:
    """An arm's points and new memory items, in one transaction."""
    rows = [{"evolution_id": evolution_id, **p.model_dump()} for p in points]
    memory = [{"evolution_id": evolution_id, "arm": arm, "step": int(i.get("step", 0)),
               "kind": i.get("kind"), "task": i.get("task"), "case_id": i.get("case_id"),
               "data": dumps(i)} for i in items]
    with db.atomic():
        db.table("ah_points").upsert_all(rows, pk=("evolution_id", "arm", "task", "seen"))
        if memory:
            db.table("ah_memory").insert_all(memory)


def evolution_points(db: Database, evolution_id: str) -> list[Point]:
    """Every point of an evolution, by arm (in the order first stored), task, seen."""
    rows = db.query("SELECT * FROM ah_points WHERE evolution_id = ? ORDER BY rowid",
                    [evolution_id])
    points = [Point.model_validate({k: v for k, v in r.items() if k != "evolution_id"})
              for r in rows]
    arms = list(dict.fromkeys(p.arm for p in points))
    tasks = ("examination", "diagnosis", "treatment")
    return sorted(points, key=lambda p: (arms.index(p.arm), tasks.index(p.task)
                                         if p.task in tasks else 9, p.seen))


def memory_items(db: Database, evolution_id: str, arm: str,
                 step: int | None = None) -> list[dict[str, Any]]:
    """An arm's memory items, in the order added, up to `step`."""
    sql = "SELECT data FROM ah_memory WHERE evolution_id = ? AND arm = ?"
    args: list[Any] = [evolution_id, arm]
    if step is not None:
        sql += " AND step <= ?"
        args.append(step)
    return [loads(r["data"], {}) for r in db.query(sql + " ORDER BY id", args)]


def _library(db: Database, row: dict[str, Any]) -> Library:
    counts = dict(db.execute(
        "SELECT kind, count(*) FROM ah_memory WHERE evolution_id = ? AND arm = ? AND step <= ? "
        "GROUP BY kind", [row["evolution_id"], row["arm"], row["step"]]).fetchall())
    return Library(**row, records=counts.get("record", 0), principles=counts.get("principle", 0))


def freeze_library(db: Database, name: str, evolution_id: str, arm: str, step: int) -> Library:
    """Name an arm's memory at a step."""
    if not name.strip():
        raise InputError("a library needs a name", field="--freeze")
    if db.execute("SELECT 1 FROM ah_libraries WHERE name = ?", [name]).fetchone():
        raise InputError(f"a library named '{name}' exists already", field="--freeze")
    row = {"name": name, "evolution_id": evolution_id, "arm": arm, "step": step,
           "created_at": utc_now()}
    db.table("ah_libraries").insert(row)
    return _library(db, row)


def get_library(db: Database, name: str) -> Library:
    """A frozen library by name; NotFoundError."""
    rows = list(db.query("SELECT * FROM ah_libraries WHERE name = ?", [name]))
    if not rows:
        raise NotFoundError(f"no library '{name}' (see `bedside evolve list`)")
    return _library(db, rows[0])


def list_libraries(db: Database) -> list[Library]:
    """Every frozen library, newest first."""
    return [_library(db, r) for r in db.query("SELECT * FROM ah_libraries ORDER BY rowid DESC")]


class EvolutionRepository:
    """`core.ports.agenthospital.EvolutionStore` on a connection (`db.store.SqliteStore`
    inherits it)."""

    db: Database

    def create_evolution(self, *, name: str | None, config: dict[str, Any]) -> str:
        """Record a new evolution (status 'running'); its id."""
        return create_evolution(self.db, name=name, config=config)

    def set_evolution_status(self, evolution_id: str, status: str) -> None:
        """running / finished / interrupted / failed."""
        set_evolution_status(self.db, evolution_id, status)

    def get_evolution(self, ref: str) -> Evolution:
        """By id or name; NotFoundError."""
        return get_evolution(self.db, ref)

    def list_evolutions(self) -> list[Evolution]:
        """Every evolution, newest first."""
        return list_evolutions(self.db)

    def save_checkpoint(self, evolution_id: str, arm: str, points: list[Point],
                        items: list[dict[str, Any]]) -> None:
        """An arm's points and new memory items, in one transaction."""
        save_checkpoint(self.db, evolution_id, arm, points, items)

    def evolution_points(self, evolution_id: str) -> list[Point]:
        """Every point of an evolution."""
        return evolution_points(self.db, evolution_id)

    def memory_items(self, evolution_id: str, arm: str,
                     step: int | None = None) -> list[dict[str, Any]]:
        """An arm's memory items up to `step`."""
        return memory_items(self.db, evolution_id, arm, step)

    def freeze_library(self, name: str, evolution_id: str, arm: str, step: int) -> Library:
        """Name an arm's memory at a step."""
        return freeze_library(self.db, name, evolution_id, arm, step)

    def get_library(self, name: str) -> Library:
        """A frozen library by name."""
        return get_library(self.db, name)

    def list_libraries(self) -> list[Library]:
        """Every frozen library, newest first."""
        return list_libraries(self.db)
