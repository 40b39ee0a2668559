"""Schema migrations: append-only functions, applied in one place (`db.connection.open_db`).

Never edit a migration that has shipped; add a new one. Each runs in its own transaction.
Tables are reached with `db.table(name)` (a `Table`, never a `View`), which also keeps the
type checker exact.
"""

from __future__ import annotations

from sqlite_utils import Database, Migrations

migrations = Migrations("bedside")


@migrations()
def m001_initial(db: Database) -> None:
    """Cases, runs, consultations, turns, events."""
    db.table("cases").create(
        {"id": str, "title": str, "specialty": str, "language": str, "source": str,
         "licence": str, "data": str, "content_hash": str, "added_at": str},
        pk="id",
    )
    db.table("runs").create(
        {"id": str, "name": str, "created_at": str, "finished_at": str, "status": str,
         "config": str, "provenance": str},
        pk="id",
    )
    db.table("consultations").create(
        {"id": str, "run_id": str, "case_id": str, "config_key": str, "doctor": str,
         "patient": str, "examiner": str, "config": str, "status": str, "end_reason": str,
         "diagnosis": str, "correct": int, "verdicts": str, "report": str,
         "doctor_turns": int, "tests_ordered": int, "prompt_tokens": int,
         "completion_tokens": int, "cost_usd": float, "started_at": str, "ended_at": str,
         "error": str, "origin": str, "meta": str},
        pk="id",
        foreign_keys=[("run_id", "runs", "id"), ("case_id", "cases", "id")],
    )
    db.table("consultations").create_index(["run_id", "case_id", "config_key"])
    db.table("consultations").create_index(["status"])
    db.table("turns").create(
        {"consultation_id": str, "idx": int, "role": str, "addressee": str, "kind": str,
         "doctor_turn": int, "content": str, "tests": str, "started_at": str,
         "ended_at": str, "latency_ms": float, "prompt_tokens": int,
         "completion_tokens": int, "cost_usd": float, "model": str, "raw_request": str,
         "raw_response": str, "meta": str},
        pk=("consultation_id", "idx"),
        foreign_keys=[("consultation_id", "consultations", "id")],
    )
    db.table("events").create(
        {"id": int, "consultation_id": str, "type": str, "at": str, "data": str},
        pk="id",
        foreign_keys=[("consultation_id", "consultations", "id")],
    )
    db.table("events").create_index(["consultation_id"])


@migrations()
def m002_annotation(db: Database) -> None:
    """Raters, studies, assignments, ratings with history, judge calls."""
    db.table("raters").create(
        {"id": str, "name": str, "kind": str, "model": str, "params": str,
         "prompt_hash": str, "created_at": str},
        pk="id",
    )
    db.table("raters").create_index(["name"], unique=True)
    db.table("studies").create(
        {"id": str, "name": str, "definition": str, "created_at": str}, pk="id"
    )
    db.table("studies").create_index(["name"], unique=True)
    db.table("assignments").create(
        {"id": str, "study_id": str, "rater_id": str, "consultation_id": str,
         "position": int, "calibration": int, "status": str, "skip_reason": str,
         "updated_at": str},
        pk="id",
        foreign_keys=[("study_id", "studies", "id"), ("rater_id", "raters", "id"),
                      ("consultation_id", "consultations", "id")],
    )
    db.table("assignments").create_index(["study_id", "rater_id", "consultation_id"], unique=True)
    db.table("ratings").create(
        {"id": str, "assignment_id": str, "study_id": str, "rater_id": str,
         "consultation_id": str, "item": str, "turn_idx": int, "value": str,
         "comment": str, "created_at": str, "updated_at": str},
        pk="id",
        not_null={"turn_idx"},
        defaults={"turn_idx": -1},
        foreign_keys=[("assignment_id", "assignments", "id")],
    )
    db.table("ratings").create_index(["assignment_id", "item", "turn_idx"], unique=True)
    db.table("ratings").create_index(["study_id", "item"])
    db.table("rating_history").create(
        {"id": int, "rating_id": str, "action": str, "value": str, "comment": str,
         "at": str},
        pk="id",
    )
    db.table("rating_history").create_index(["rating_id"])
    db.table("judge_calls").create(
        {"id": str, "study_id": str, "rater_id": str, "consultation_id": str,
         "status": str, "attempts": int, "raw_response": str, "error": str,
         "prompt_hash": str, "params": str, "created_at": str},
        pk="id",
    )


@migrations()
def m003_metrics(db: Database) -> None:
    """Per-consultation metrics (one row per metric name)."""
    db.table("metrics").create(
        {"consultation_id": str, "name": str, "value": float, "detail": str,
         "computed_at": str},
        pk=("consultation_id", "name"),
        foreign_keys=[("consultation_id", "consultations", "id")],
    )


@migrations()
def m004_rating_saves(db: Database) -> None:
    """Rating saves (one per Enter / skip), so a rater can undo the last one.

    Each history row now names its save and the value it replaced.
    """
    db.table("rating_saves").create(
        {"id": str, "study_id": str, "rater_id": str, "assignment_id": str, "kind": str,
         "prev_status": str, "prev_skip_reason": str, "at": str, "undone_at": str},
        pk="id",
        foreign_keys=[("assignment_id", "assignments", "id")],
    )
    db.table("rating_saves").create_index(["study_id", "rater_id", "at"])
    db.table("rating_history").add_column("save_id", str)
    db.table("rating_history").add_column("prev_value", str)
    db.table("rating_history").add_column("prev_comment", str)


# Later migrations are appended below, one block per area, in this order. A block's
# migrations are numbered within its range so that two areas never take the same name.
# --- engine and store: m005_* ---
# --- benchmark metrics: m006_* ---


@migrations()
def m006_metric_provenance(db: Database) -> None:
    """Metric rows say which version of the case they were computed on (`case_hash`, so
    they are recomputed when the case changes) and, for LLM-based metrics, the key of the
    model, parameters and prompt that produced them (`cache_key`, so they are not paid for
    twice)."""
    db.table("metrics").add_column("case_hash", str)
    db.table("metrics").add_column("cache_key", str)


# --- reader studies: m007_* ---


# --- simulator fidelity (issue 19): m800_* ---


@migrations()
def m800_fidelity(db: Database) -> None:
    """Simulator fidelity of consultations: the rules' findings of each one (every patient
    and examiner answer checked, as JSON), with the case and rules they were computed on so
    stale ones are recomputed; and the LLM grader's verdict on each answer, with its model,
    parameters and prompt hash (`grader_key` hashes the three)."""
    db.table("fidelity_checks").create(
        {"consultation_id": str, "case_hash": str, "rules_hash": str, "findings": str,
         "computed_at": str},
        pk="consultation_id",
        foreign_keys=[("consultation_id", "consultations", "id")],
    )
    db.table("fidelity_grades").create(
        {"consultation_id": str, "turn_index": int, "grader_key": str, "role": str,
         "model": str, "params": str, "prompt_hash": str, "case_hash": str, "verdict": str,
         "failed": int, "computed_at": str},
        pk=("consultation_id", "turn_index", "grader_key"),
        foreign_keys=[("consultation_id", "consultations", "id")],
    )
    db.table("fidelity_grades").create_index(["grader_key"])


# --- doctor tools (issue 17): m220_* ---


@migrations()
def m220_corpus(db: Database) -> None:
    """The doctor tools' local search corpus (`bedside corpus add DIR`): one row per
    document (its path is its source, unique; its sha256 tells a changed file), and its
    passages in an FTS5 index (unicode61 words, diacritics folded) that `SEARCH:` queries.
    Notebook versions need no table: each is a `notebook_write` turn."""
    db.table("corpus_documents").create(
        {"id": str, "path": str, "title": str, "kind": str, "sha256": str, "chars": int,
         "passages": int, "added_at": str},
        pk="id",
    )
    db.table("corpus_documents").create_index(["path"], unique=True)
    db.execute("CREATE VIRTUAL TABLE corpus_passages USING fts5(text, title,"
               " document_id UNINDEXED, position UNINDEXED,"
               " tokenize = 'unicode61 remove_diacritics 2')")


# --- Agent Hospital (issue 14): m500_* ---


@migrations()
def m500_agenthospital(db: Database) -> None:
    """Agent Hospital evolution experiments: each `bedside evolve` (settings, status), the
    points of its learning curves (per arm, task and training step), the memory its arms
    built (records and principles, each with the step it was added at, so the library at
    any step can be rebuilt), and frozen libraries (a name for an arm's memory at a
    step)."""
    db.table("ah_evolutions").create(
        {"id": str, "name": str, "created_at": str, "finished_at": str, "status": str,
         "config": str},
        pk="id",
    )
    db.table("ah_points").create(
        {"evolution_id": str, "arm": str, "task": str, "seen": int,
         "train_accuracy": float, "test_accuracy": float, "principles": int, "records": int,
         "wrong": int, "test_n": int},
        pk=("evolution_id", "arm", "task", "seen"),
        foreign_keys=[("evolution_id", "ah_evolutions", "id")],
    )
    db.table("ah_memory").create(
        {"id": int, "evolution_id": str, "arm": str, "step": int, "kind": str, "task": str,
         "case_id": str, "data": str},
        pk="id",
        foreign_keys=[("evolution_id", "ah_evolutions", "id")],
    )
    db.table("ah_memory").create_index(["evolution_id", "arm", "step"])
    db.table("ah_libraries").create(
        {"name": str, "evolution_id": str, "arm": str, "step": int, "created_at": str},
        pk="name",
        foreign_keys=[("evolution_id", "ah_evolutions", "id")],
    )


# --- judges side by side (issue 13 items 3-6): m320_* ---


@migrations()
def m320_judged_metrics(db: Database) -> None:
    """LLM-judged values (the report score, the patient's ratings) per judge: one row per
    (consultation, metric, judge), `judge` naming who produced it (`judge:MODEL#H`,
    `patient:MODEL#H`; H hashes the model, its parameters and the prompt), so a second
    judge's grades sit beside the first's instead of replacing them. The values stored so
    far move here under the name of the judge their detail records (`judge:unknown` /
    `patient:unknown` when it records none)."""
    from db.judged import migrate_judged_rows

    db.table("judged_metrics").create(
        {"consultation_id": str, "name": str, "judge": str, "value": float, "detail": str,
         "computed_at": str, "case_hash": str, "cache_key": str},
        pk=("consultation_id", "name", "judge"),
        foreign_keys=[("consultation_id", "consultations", "id")],
    )
    db.table("judged_metrics").create_index(["judge"])
    migrate_judged_rows(db)
# --- The whole hospital (issue 15): m550_* ---


@migrations()
def m550_hospital(db: Database) -> None:
    """The whole hospital's events (`bedside hospital`): one row per event of a run — its
    sequence number, day, patient and visit, station, what happened, the department, the
    consultation it started (if any) and the rest as JSON."""
    db.table("hospital_events").create(
        {"run_id": str, "seq": int, "day": int, "patient": str, "visit": int, "station": str,
         "what": str, "department": str, "consultation_id": str, "detail": str},
        pk=("run_id", "seq"),
        foreign_keys=[("run_id", "runs", "id")],
    )


# --- reliability (issue 18): m100_* ---


@migrations()
def m100_run_leases(db: Database) -> None:
    """One owner per run: the lease its owner holds and renews (a heartbeat), and the
    consultations the owner's worker processes have claimed under it (`unit` is a (case,
    configuration) pair, or a configuration whose cases are played in order), so none is
    played twice."""
    db.table("run_leases").create(
        {"run_id": str, "token": str, "host": str, "pid": int, "pid_start": int,
         "since": str, "heartbeat_at": float},
        pk="run_id",
    )
    db.table("run_claims").create(
        {"run_id": str, "unit": str, "token": str, "worker": int, "claimed_at": str},
        pk=("run_id", "unit"),
    )


@migrations()
def m120_metric_sets(db: Database) -> None:
    """Which set of metrics was last saved whole for a consultation, and on which version of
    its case (`db.metrics.set_mark`): what tells `bedside results` that a consultation's
    metrics are complete and current without reading each of them (NULL: not known, read
    them). Any change to a consultation's metric rows clears its mark (triggers), so a
    mark is only ever as new as the rows it vouches for, however they were written."""
    db.table("consultations").add_column("metric_set", str)
    for event, rows in (("INSERT", ("NEW",)), ("DELETE", ("OLD",)), ("UPDATE", ("OLD", "NEW"))):
        ids = " OR ".join(f"id = {row}.consultation_id" for row in rows)
        db.execute(f"CREATE TRIGGER metric_set_{event.lower()} AFTER {event} ON metrics"
                   f" BEGIN UPDATE consultations SET metric_set = NULL WHERE {ids}; END")
