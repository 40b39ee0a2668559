"""Test helpers for the app tests: a seeded database, a scripted stand-in engine, and
waiting for and reading what the app has painted.

The fake engine follows `core.engine.run_consultation`'s signature and emits the same
events, so the app's wiring (recorder, screens, cancellation) is tested on its own.
"""

from __future__ import annotations

import asyncio
from pathlib import Path
from types import SimpleNamespace
from typing import Any

from core.caseio import load_bundled_cases
from core.events import (ConsultationFinished, ConsultationStarted, TestRequested,
                         TurnCompleted)
from core.transcript import (EndReason, Role, Transcript, Turn, Verdict, utc_now)

#: Polls 0.05 s apart: up to 30 s on a loaded machine. A test asserts that a state is
#: reached, never how fast.
TRIES = 600


async def wait_until(pilot: Any, predicate: Any, tries: int = TRIES) -> None:
    """Poll until `predicate()` holds; fail if it never does."""
    for _ in range(tries):
        if predicate():
            return
        await pilot.pause(0.05)
    raise AssertionError("condition not reached")


async def home_loaded(pilot: Any) -> Any:
    """The home screen, once it has loaded the case library."""
    from tui.app.screens.home import HomeScreen

    def ready() -> bool:
        return isinstance(pilot.app.screen, HomeScreen) and bool(pilot.app.screen.cases)

    await wait_until(pilot, ready)
    return pilot.app.screen


def painted_text(app: Any) -> str:
    """All text currently painted, from the screenshot SVG (markup-free by construction)."""
    import html
    import re

    svg = app.export_screenshot()
    return html.unescape(" ".join(re.findall(r">([^<]*)</text>", svg))).replace("\xa0", " ")


def screen_lines(app: Any) -> list[str]:
    """The painted screen as lines of text (from the screenshot SVG)."""
    import html
    import re
    from collections import defaultdict

    svg = app.export_screenshot()
    rows: dict[float, list[tuple[float, str]]] = defaultdict(list)
    for m in re.finditer(r'<text class="[^"]*" x="([\d.]+)" y="([\d.]+)"[^>]*>([^<]*)</text>',
                         svg):
        text = html.unescape(m.group(3)).replace("\xa0", " ")
        rows[float(m.group(2))].append((float(m.group(1)), text))
    return ["".join(t for _, t in sorted(rows[y])) for y in sorted(rows)]


HOSTILE = "Take [bold red]this[/] now \x1b[31mRED\x1b[0m [link=x]y[/link]"


def seed(path: Path) -> str:
    """A database with the bundled cases and one finished consultation; returns its id."""
    from db.cases import save_cases
    from db.connection import open_db
    from db.consultations import save_transcript

    db = open_db(path)
    cases = load_bundled_cases()
    save_cases(db, cases)
    turns = [
        Turn(index=0, role=Role.DOCTOR, content="What brings you in?", doctor_turn=1,
             kind="question"),
        Turn(index=1, role=Role.PATIENT, content=HOSTILE, doctor_turn=1, kind="answer"),
        Turn(index=2, role=Role.DOCTOR, content="REQUEST TEST: ECG, troponin", doctor_turn=2,
             kind="test_request", tests=["ECG", "troponin"]),
        Turn(index=3, role=Role.EXAMINER, kind="result", doctor_turn=2,
             content="Electrocardiogram: ST elevation in II, III, aVF\n"
                     "Cardiac troponin: 1,840 ng/L [high]"),
    ]
    t = Transcript(case_id=cases[0].id, turns=turns, diagnosis="Inferior STEMI",
                   end_reason=EndReason.DIAGNOSIS, doctor="model-x",
                   verdicts=[Verdict(moderator="exact", correct=True)])
    return save_transcript(db, t, consultation_id="imp-seeded", origin="test")


def _turn(i: int, role: Role, content: str, dt: int, kind: str, **kw: Any) -> Turn:
    return Turn(index=i, role=role, content=content, doctor_turn=dt, kind=kind,
                started_at=utc_now(), ended_at=utc_now(), **kw)


async def fake_run_consultation(case: Any, config: Any, sink: Any, *, consultation_id: str,
                                run_id: str | None = None, cancel_event: Any = None,
                                human_input: Any = None) -> Transcript:
    """Scripted engine: patient echoes, examiner reports, 'exact' moderator."""
    sink.emit(ConsultationStarted(consultation_id=consultation_id, case_id=case.id,
                                  run_id=run_id, config={"doctor": config.label}))
    turns: list[Turn] = []
    dt = 0
    while dt < config.max_turns:
        action = await human_input()
        dt += 1
        if not isinstance(action, str):
            diagnosis = action.diagnosis
            turns.append(_turn(len(turns), Role.DOCTOR, f"DIAGNOSIS READY: {diagnosis}", dt,
                               "diagnosis", latency_ms=1200.0))
            sink.emit(TurnCompleted(consultation_id=consultation_id, turn=turns[-1]))
            correct = diagnosis.lower() in case.truth.diagnosis.lower()
            sink.emit(ConsultationFinished(
                consultation_id=consultation_id, end_reason=EndReason.DIAGNOSIS,
                diagnosis=diagnosis, verdicts=[Verdict(moderator="exact", correct=correct)],
                doctor_turns=dt))
            return Transcript(case_id=case.id, turns=turns, diagnosis=diagnosis)
        test = action.startswith("REQUEST TEST:")
        turns.append(_turn(len(turns), Role.DOCTOR, action, dt,
                           "test_request" if test else "question", latency_ms=900.0))
        sink.emit(TurnCompleted(consultation_id=consultation_id, turn=turns[-1]))
        if test:
            sink.emit(TestRequested(consultation_id=consultation_id, doctor_turn=dt,
                                    tests=[action.split(":", 1)[1].strip()]))
        await asyncio.sleep(0)
        reply = "Electrocardiogram: normal" if test else f"You asked: {action} [/]"
        turns.append(_turn(len(turns), Role.EXAMINER if test else Role.PATIENT, reply, dt,
                           "result" if test else "answer"))
        sink.emit(TurnCompleted(consultation_id=consultation_id, turn=turns[-1]))
    sink.emit(ConsultationFinished(consultation_id=consultation_id, end_reason=EndReason.BUDGET,
                                   doctor_turns=dt))
    return Transcript(case_id=case.id, turns=turns)


def fake_engine() -> SimpleNamespace:
    """A stand-in for the `core.engine` module."""
    return SimpleNamespace(run_consultation=fake_run_consultation)
