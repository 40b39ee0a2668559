"""Shared helpers for the reader-study tests: a database with N stored transcripts.

Each transcript was 'played' by a doctor whose label must never reach a rater
(SECRET_DOCTOR) and carries a verdict and moderator/system turns that must stay hidden.
"""

from __future__ import annotations

from pathlib import Path

from core.caseio import load_bundled_cases
from core.transcript import EndReason, Role, Transcript, Turn, Verdict

SECRET_DOCTOR = "secret-model-9000"
SECRET_VERDICT = "VERDICT-CORRECT-XYZ"
HOSTILE = "[bold red]I feel awful[/] \x1b[31mred\x1b[0m"

STUDY_TOML = """\
name = "pilot"
instructions = "Rate each consultation carefully."
raters = ["alice", "bob", "carol"]
overlap = 2
calibration = 1
seed = 7

[select]
models = ["{doctor}"]
"""


def transcript(case_id: str, n: int) -> Transcript:
    """A short consultation with patient and examiner turns, a verdict, hidden turns."""
    turns = [
        Turn(index=0, role=Role.SYSTEM, content=f"You are {SECRET_DOCTOR}", kind="message"),
        Turn(index=1, role=Role.DOCTOR, content=f"What brings you in today? ({n})",
             doctor_turn=1, kind="question", model=SECRET_DOCTOR),
        Turn(index=2, role=Role.PATIENT, content=HOSTILE, doctor_turn=1, kind="answer"),
        Turn(index=3, role=Role.DOCTOR, content="REQUEST TEST: ECG", doctor_turn=2,
             kind="test_request", tests=["ECG"], model=SECRET_DOCTOR),
        Turn(index=4, role=Role.EXAMINER, content="ECG: sinus rhythm", doctor_turn=2,
             kind="result", tests=["ECG"]),
        Turn(index=5, role=Role.DOCTOR, content="DIAGNOSIS READY: something", doctor_turn=3,
             kind="diagnosis", model=SECRET_DOCTOR),
        Turn(index=6, role=Role.MODERATOR, content=SECRET_VERDICT, kind="verdict"),
    ]
    return Transcript(case_id=case_id, turns=turns, diagnosis="something",
                      end_reason=EndReason.DIAGNOSIS, doctor=SECRET_DOCTOR,
                      verdicts=[Verdict(moderator="exact", correct=True, raw=SECRET_VERDICT)])


def seed_db(path: Path, n: int = 6, id_prefix: str = "c"):
    """A migrated database with the bundled cases and `n` finished transcripts, whose
    consultation ids are `id_prefix` + two digits (c00, c01, ...)."""
    from db.cases import save_cases
    from db.connection import open_db
    from db.consultations import save_transcript

    db = open_db(path)
    cases = load_bundled_cases()
    save_cases(db, cases)
    for i in range(n):
        save_transcript(db, transcript(cases[i % len(cases)].id, i),
                        consultation_id=f"{id_prefix}{i:02d}", origin="test")
    return db


def make_study(db, tmp_path: Path, text: str | None = None) -> str:
    """Create the pilot study (3 raters, k=2, 1 calibration) and return its id."""
    from annotation.assignment import create_study
    from annotation.study import load_study_file
    from db.study_store import SqliteStudyStore

    f = tmp_path / "study.toml"
    f.write_text(text or STUDY_TOML.format(doctor=SECRET_DOCTOR), encoding="utf-8")
    return create_study(SqliteStudyStore(db), load_study_file(f)).id
