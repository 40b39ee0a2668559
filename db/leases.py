"""Run leases and claims: which process owns a run, and which of its worker processes plays
which consultation. The rules (who may take a lease, heartbeats) are
`core.usecases.leases`; this module is their SQL, each decision in one write transaction so
two processes can never both win.
"""

from __future__ import annotations

from collections.abc import Callable

from sqlite_utils import Database

from core.records.leases import LeaseRecord
from core.transcript import utc_now
from db.connection import write

_COLUMNS = ("run_id", "token", "host", "pid", "pid_start", "since", "heartbeat_at")


def get_lease(db: Database, run_id: str) -> LeaseRecord | None:
    """The run's lease, if anyone holds it."""
    row = db.execute(f"SELECT {', '.join(_COLUMNS)} FROM run_leases WHERE run_id = ?",
                     [run_id]).fetchone()
    return LeaseRecord.model_validate(dict(zip(_COLUMNS, row, strict=True))) if row else None


def take_lease(db: Database, lease: LeaseRecord,
               may_take: Callable[[LeaseRecord], bool]) -> LeaseRecord | None:
    """Take the run's lease for `lease`'s owner unless someone holds it and `may_take(held)`
    says no; return None when taken, else the holder. Claims made under an earlier lease
    are dropped (they were that owner's)."""
    with write(db):
        held = get_lease(db, lease.run_id)
        if held is not None and held.token != lease.token and not may_take(held):
            return held
        db.execute(f"INSERT OR REPLACE INTO run_leases ({', '.join(_COLUMNS)}) VALUES"
                   f" ({', '.join('?' * len(_COLUMNS))})",
                   [getattr(lease, c) for c in _COLUMNS])
        db.execute("DELETE FROM run_claims WHERE run_id = ? AND token != ?",
                   [lease.run_id, lease.token])
    return None


def renew_lease(db: Database, run_id: str, token: str, at: float) -> bool:
    """The owner's heartbeat; False when the lease is no longer its own."""
    with write(db):
        cur = db.execute("UPDATE run_leases SET heartbeat_at = ? WHERE run_id = ? AND"
                         " token = ?", [at, run_id, token])
    return cur.rowcount == 1


def holds_lease(db: Database, run_id: str, token: str) -> bool:
    """Whether `token` holds the run's lease now."""
    return db.execute("SELECT 1 FROM run_leases WHERE run_id = ? AND token = ?",
                      [run_id, token]).fetchone() is not None


def release_lease(db: Database, run_id: str, token: str, status: str | None) -> bool:
    """Let go of the lease and, if given, set the run's final status, in one transaction
    and only if `token` still holds it (a taken-over owner changes nothing). Returns
    whether it did. Its workers' claims stay until the next owner takes the lease (they
    say which worker played what)."""
    ended = None if status in (None, "running") else utc_now()
    with write(db):
        if not holds_lease(db, run_id, token):
            return False
        if status is not None:
            db.execute("UPDATE runs SET status = ?, finished_at = ? WHERE id = ?",
                       [status, ended, run_id])
        db.execute("DELETE FROM run_leases WHERE run_id = ?", [run_id])
    return True


def claim(db: Database, run_id: str, token: str, unit: str, worker: int) -> bool:
    """Claim one unit of work of the run for a worker of the lease `token`; False when
    another worker has it, or the lease is not `token`'s any more."""
    with write(db):
        if not holds_lease(db, run_id, token):
            return False
        cur = db.execute("INSERT OR IGNORE INTO run_claims (run_id, unit, token, worker,"
                         " claimed_at) VALUES (?, ?, ?, ?, ?)",
                         [run_id, unit, token, worker, utc_now()])
    return cur.rowcount == 1
