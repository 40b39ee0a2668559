"""Consultation repository and the recorder sink that commits every event as it happens.

Statuses: running, finished, failed, cancelled, abandoned (left 'running' by a process that
died; set on resume) and superseded. When a run redoes a (case, config_key) pair — an
interrupted or cancelled one, or a failed one with `--retry-failed` — the new
consultation's start marks the earlier rows of that pair `superseded`, in the same
transaction: nothing saved is deleted, and each (run, case, config_key) always has exactly
one row that is not superseded.

The recorder writes with plain prepared SQL (one short transaction per event): it runs on
the engine's event loop, so each event must cost little.
"""

from __future__ import annotations

import json
from typing import Any

from sqlite_utils import Database

from core.consultation_state import ConsultationState, agent_label, apply, supersede_key
from core.errors import LeaseLostError, NotFoundError
from core.events import (ConsultationFailed, ConsultationFinished, ConsultationStarted, Event,
                         TestRequested, TokenDelta, TurnCompleted)
from core.records.runs import ConsultationSummary
from core.transcript import (EndReason, Transcript, Turn, Usage, Verdict,
                             utc_now, verdict_correct)
from db.jsoncol import dumps, loads

DONE_STATUSES = ("finished", "failed")
SUPERSEDED = "superseded"


def _turn_row(consultation_id: str, turn: Turn) -> dict[str, Any]:
    return {
        "consultation_id": consultation_id, "idx": turn.index, "role": str(turn.role),
        "addressee": str(turn.addressee) if turn.addressee else None, "kind": turn.kind,
        "doctor_turn": turn.doctor_turn, "content": turn.content, "tests": dumps(turn.tests),
        "started_at": turn.started_at, "ended_at": turn.ended_at,
        "latency_ms": turn.latency_ms, "prompt_tokens": turn.usage.prompt_tokens,
        "completion_tokens": turn.usage.completion_tokens, "cost_usd": turn.usage.cost_usd,
        "model": turn.model, "raw_request": dumps(turn.raw_request),
        "raw_response": dumps(turn.raw_response), "meta": dumps(turn.meta or None),
    }


def _verdict_correct(verdicts: list[Verdict]) -> int | None:
    correct = verdict_correct(verdicts)  # the same rule as the batch outcome
    return None if correct is None else int(correct)


_TURN_COLUMNS = ("consultation_id", "idx", "role", "addressee", "kind", "doctor_turn",
                 "content", "tests", "started_at", "ended_at", "latency_ms", "prompt_tokens",
                 "completion_tokens", "cost_usd", "model", "raw_request", "raw_response",
                 "meta")
_INSERT_TURN = (f"INSERT OR REPLACE INTO turns ({', '.join(_TURN_COLUMNS)}) VALUES"
                f" ({', '.join('?' * len(_TURN_COLUMNS))})")
_HOLDS_LEASE = "SELECT 1 FROM run_leases WHERE run_id = ? AND token = ?"  # the fence
_INSERT_EVENT = "INSERT INTO events (consultation_id, type, at, data) VALUES (?, ?, ?, ?)"
_STARTED_COLUMNS = ("id", "run_id", "case_id", "config_key", "doctor", "patient", "examiner",
                    "config", "status", "started_at", "origin", "doctor_turns",
                    "tests_ordered", "prompt_tokens", "completion_tokens", "cost_usd")
_INSERT_STARTED = (f"INSERT INTO consultations ({', '.join(_STARTED_COLUMNS)})"
                   f" VALUES ({', '.join('?' * len(_STARTED_COLUMNS))})")


def _event_data(event: Event) -> str:
    """The event's JSON for the events log. A completed turn is logged by its index only:
    the turn itself is in `turns` (serialising its raw request twice, with the whole
    message history, was most of the recorder's cost on long model consultations)."""
    if isinstance(event, TurnCompleted):
        t = event.turn
        return json.dumps({"index": t.index, "role": str(t.role), "kind": t.kind},
                          ensure_ascii=False)  # as db.jsoncol.dumps writes it
    return event.model_dump_json(exclude={"consultation_id", "at", "type"})


_STATE_COLUMNS = ("case_id", "run_id", "config_key", "origin", "doctor", "status",
                  "doctor_turns", "tests_ordered", "prompt_tokens", "completion_tokens",
                  "cost_usd")


class Recorder:
    """An EventSink that writes each event to the store the moment it arrives.

    Each event is folded into the consultation's state (`core.consultation_state.apply`,
    kept in memory until the consultation ends) and the columns the event changes are
    written from that state, so the row says what the reducer says."""

    def __init__(self, db: Database, fence: tuple[str, str] | None = None) -> None:
        self.db = db
        self.conn = db.conn
        self.states: dict[str, ConsultationState] = {}
        #: (run id, lease token): events of that run are written only while the token
        #: holds the run's lease (a process whose run was taken over writes nothing more).
        self.fence = fence

    def emit(self, event: Event) -> None:
        """Commit the event (token deltas are not stored: the completed turn is)."""
        if isinstance(event, TokenDelta):
            return
        cid = event.consultation_id
        before = None if isinstance(event, ConsultationStarted) else self._state(cid)
        after = apply(before, event)
        handler = getattr(self, f"_on_{event.type}", None)
        if handler is not None and after is None:  # not stored: nothing to update
            raise NotFoundError(f"no consultation with id '{cid}' to update")
        with self.db.atomic():
            run_id = event.run_id if isinstance(event, ConsultationStarted) else (
                after.run_id if after is not None else None)
            if self.fence is not None and run_id == self.fence[0] \
                    and self.conn.execute(_HOLDS_LEASE, self.fence).fetchone() is None:
                raise LeaseLostError(f"run {run_id} was taken over by another process; "
                                     "this one stops and records nothing more")
            if handler is not None:
                handler(event, after)
            self.conn.execute(_INSERT_EVENT, (cid, event.type, event.at, _event_data(event)))
        if isinstance(event, ConsultationFinished | ConsultationFailed):
            self.states.pop(cid, None)  # ended: a later event reads the row again
        elif after is not None:
            self.states[cid] = after

    def _state(self, consultation_id: str) -> ConsultationState | None:
        """The state in memory, else the stored row's (a consultation started by another
        recorder); None when there is no such consultation."""
        state = self.states.get(consultation_id)
        if state is not None:
            return state
        row = self.conn.execute(f"SELECT {', '.join(_STATE_COLUMNS)} FROM consultations"
                                " WHERE id = ?", [consultation_id]).fetchone()
        if row is None:
            return None
        values = dict(zip(_STATE_COLUMNS, row, strict=True))
        return ConsultationState(consultation_id=consultation_id, **{
            k: v for k, v in values.items() if v is not None or k in ("run_id", "config_key")})

    def _update(self, consultation_id: str, sql: str, params: list[Any]) -> None:
        cur = self.conn.execute(f"UPDATE consultations SET {sql} WHERE id = ?",
                                [*params, consultation_id])
        if cur.rowcount != 1:  # the event would be stored for a consultation that is not
            raise NotFoundError(f"no consultation with id '{consultation_id}' to update")

    def _on_started(self, e: ConsultationStarted, s: ConsultationState) -> None:
        cfg = e.config
        pair = supersede_key(e)
        if pair is not None:  # a redo of a pair supersedes the earlier rows of the pair
            self.conn.execute(
                "UPDATE consultations SET status = ? WHERE run_id = ? AND case_id = ? AND"
                " config_key IS ? AND id != ? AND status != ?",
                (SUPERSEDED, *pair, e.consultation_id, SUPERSEDED))
        self.conn.execute(_INSERT_STARTED, (
            s.consultation_id, s.run_id, s.case_id, s.config_key, s.doctor,
            agent_label(cfg.get("patient")), agent_label(cfg.get("examiner")), dumps(cfg),
            s.status, s.started_at, s.origin, s.doctor_turns, s.tests_ordered,
            s.prompt_tokens, s.completion_tokens, s.cost_usd))

    def _on_turn_completed(self, e: TurnCompleted, s: ConsultationState) -> None:
        row = _turn_row(e.consultation_id, e.turn)
        self.conn.execute(_INSERT_TURN, [row[c] for c in _TURN_COLUMNS])
        self._update(e.consultation_id, "prompt_tokens = ?, completion_tokens = ?,"
                     " cost_usd = ?, doctor_turns = ?",
                     [s.prompt_tokens, s.completion_tokens, s.cost_usd, s.doctor_turns])

    def _on_test_requested(self, e: TestRequested, s: ConsultationState) -> None:
        self._update(e.consultation_id, "tests_ordered = ?", [s.tests_ordered])

    def _on_finished(self, e: ConsultationFinished, s: ConsultationState) -> None:
        self._update(e.consultation_id,
                     "status = ?, end_reason = ?, diagnosis = ?, verdicts = ?,"
                     " correct = ?, report = ?, doctor_turns = ?, ended_at = ?, meta = ?",
                     [s.status, s.end_reason, s.diagnosis,
                      dumps([v.model_dump() for v in e.verdicts]),
                      None if s.correct is None else int(s.correct),
                      dumps(e.report.model_dump() if e.report else None), s.doctor_turns,
                      s.ended_at, dumps(e.meta or None)])

    def _on_failed(self, e: ConsultationFailed, s: ConsultationState) -> None:
        self._update(e.consultation_id,
                     "status = ?, end_reason = ?, error = ?, doctor_turns = ?, ended_at = ?",
                     [s.status, s.end_reason, s.error, s.doctor_turns, s.ended_at])


def save_transcript(db: Database, t: Transcript, *, consultation_id: str,
                    run_id: str | None = None, origin: str = "imported") -> str:
    """Store a finished transcript (imported dialogues) in one transaction."""
    tokens = (sum(x.usage.prompt_tokens for x in t.turns),
              sum(x.usage.completion_tokens for x in t.turns))
    with db.atomic():
        db.table("consultations").upsert({
            "id": consultation_id, "run_id": run_id, "case_id": t.case_id, "config_key": origin,
            "doctor": t.doctor, "status": "finished",
            "end_reason": str(t.end_reason or EndReason.IMPORTED), "diagnosis": t.diagnosis,
            "verdicts": dumps([v.model_dump() for v in t.verdicts]),
            "correct": _verdict_correct(t.verdicts),
            "report": dumps(t.report.model_dump() if t.report else None),
            "doctor_turns": max((x.doctor_turn or 0 for x in t.turns), default=0),
            "tests_ordered": sum(len(x.tests) for x in t.turns if x.kind == "test_request"),
            "prompt_tokens": tokens[0], "completion_tokens": tokens[1],
            "cost_usd": sum(x.usage.cost_usd for x in t.turns), "started_at": utc_now(),
            "ended_at": utc_now(), "origin": origin, "meta": dumps(t.meta or None),
        }, pk="id")
        db.table("turns").delete_where("consultation_id = ?", [consultation_id])
        db.table("turns").insert_all([_turn_row(consultation_id, x) for x in t.turns])
    return consultation_id


def _row_to_turn(r: dict[str, Any]) -> Turn:
    return Turn(
        index=r["idx"], role=r["role"], addressee=r["addressee"], kind=r["kind"] or "message",
        doctor_turn=r["doctor_turn"], content=r["content"] or "", tests=loads(r["tests"], []),
        started_at=r["started_at"], ended_at=r["ended_at"], latency_ms=r["latency_ms"],
        usage=Usage(prompt_tokens=r["prompt_tokens"] or 0,
                    completion_tokens=r["completion_tokens"] or 0, cost_usd=r["cost_usd"] or 0),
        model=r["model"], raw_request=loads(r["raw_request"]),
        raw_response=loads(r["raw_response"]), meta=loads(r["meta"], {}),
    )


def _summary(row: dict[str, Any]) -> ConsultationSummary:
    """A consultations row as a record: JSON columns parsed, NULL totals as 0."""
    data = {k: v for k, v in row.items() if v is not None}
    data["config"] = loads(row.get("config"), {}) or {}
    data["verdicts"] = loads(row.get("verdicts"), []) or []
    data["report"] = loads(row.get("report"))
    data["meta"] = loads(row.get("meta"), {}) or {}
    if row.get("correct") is not None:
        data["correct"] = bool(row["correct"])
    return ConsultationSummary.model_validate(data)


def find_consultation(db: Database, consultation_id: str) -> ConsultationSummary | None:
    """One consultation, or None."""
    rows = list(db.table("consultations").rows_where("id = ?", [consultation_id]))
    return _summary(rows[0]) if rows else None


def get_consultation(db: Database, consultation_id: str) -> ConsultationSummary:
    """One consultation; raise NotFoundError."""
    found = find_consultation(db, consultation_id)
    if found is None:
        raise NotFoundError(f"no consultation with id '{consultation_id}'")
    return found


def has_consultation(db: Database, consultation_id: str) -> bool:
    """Whether a consultation with this id is stored."""
    return db.execute("SELECT 1 FROM consultations WHERE id = ?",
                      [consultation_id]).fetchone() is not None


def list_consultations(db: Database, *, run_id: str | None = None, status: str | None = None,
                       include_superseded: bool = False, newest_first: bool = False,
                       limit: int | None = None) -> list[ConsultationSummary]:
    """Consultations of one run (all when None) and one status (any when None), by id or
    newest first; superseded ones (redone on resume) only when asked for."""
    where: list[str] = ["1"]
    args: list[Any] = []
    if run_id is not None:
        where, args = [*where, "run_id = ?"], [*args, run_id]
    if status is not None:
        where, args = [*where, "status = ?"], [*args, status]
    if not include_superseded:
        where.append(f"status != '{SUPERSEDED}'")
    order = "started_at DESC" if newest_first else "id"
    sql = f"SELECT * FROM consultations WHERE {' AND '.join(where)} ORDER BY {order}"
    if limit is not None:
        sql, args = sql + " LIMIT ?", [*args, limit]
    return [_summary(r) for r in db.query(sql, args)]


def get_transcript(db: Database, consultation_id: str) -> Transcript:
    """Rebuild a Transcript from the store."""
    row = get_consultation(db, consultation_id)
    turns = [_row_to_turn(r) for r in db.table("turns").rows_where(
        "consultation_id = ?", [consultation_id], order_by="idx")]
    return Transcript(
        case_id=row.case_id, turns=turns, diagnosis=row.diagnosis,
        end_reason=EndReason(row.end_reason) if row.end_reason else None,
        doctor=row.doctor, verdicts=row.verdicts,
        report=row.report, meta=row.meta,
    )


def turn_count(db: Database, consultation_id: str) -> int:
    """How many turns of the consultation are stored."""
    return db.execute("SELECT count(*) FROM turns WHERE consultation_id = ?",
                      [consultation_id]).fetchone()[0]


def seen_case_ids(db: Database, doctor: str) -> set[str]:
    """Cases this doctor has already played (any status but cancelled)."""
    rows = db.execute("SELECT DISTINCT case_id FROM consultations WHERE doctor = ?"
                      " AND status != 'cancelled'", [doctor]).fetchall()
    return {r[0] for r in rows}


def done_keys(db: Database, run_id: str, *, retry_failed: bool = False) -> set[tuple[str, str]]:
    """(case_id, config_key) pairs of a run not to be redone: finished ones, and failed ones
    unless `retry_failed`."""
    statuses = ("finished",) if retry_failed else DONE_STATUSES
    marks = ", ".join("?" * len(statuses))
    rows = db.execute(
        f"SELECT case_id, config_key FROM consultations WHERE run_id = ? AND status IN"
        f" ({marks})", [run_id, *statuses]).fetchall()
    return {(a, b) for a, b in rows}


def abandon_interrupted(db: Database, run_id: str) -> int:
    """Mark a run's consultations left 'running' by a killed process as abandoned."""
    cur = db.execute(
        "UPDATE consultations SET status = 'abandoned', end_reason = 'error', error ="
        " 'interrupted (process ended before the consultation finished)' WHERE run_id = ?"
        " AND status = 'running'", [run_id])
    return cur.rowcount
