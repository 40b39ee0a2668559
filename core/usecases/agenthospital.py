"""Agent Hospital patients in the project: generating and storing them, rewriting their
narrative in a patient's voice with a model, and which cases a task may be played on.

Generated cases are ordinary cases (source 'agenthospital') stored in the cases table, so
they can be run, played in the app, scored and exported like any other; the case library
a user browses (`core.usecases.library`) leaves them out unless asked, so ten thousand
training patients never crowd the bundled cases.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from dataclasses import dataclass, field

from core.agenthospital.generator import SOURCE, generate
from core.agenthospital.kb import KnowledgeBase
from core.agenthospital.tasks import encounter_of
from core.case import Case
from core.config import AgentSpec, ConsultationConfig
from core.errors import BedsideError, InputError
from core.llm import LLMClient
from core.ports.runs import CaseStore
from core.prompts import AH_REWRITE
from core.records.runs import CaseImportReport

Progress = Callable[[int, int], None]


def generated(cases: list[Case]) -> list[Case]:
    """The generated Agent Hospital cases among `cases`."""
    return [c for c in cases if c.source == SOURCE]


def check_counts(train: int, test: int) -> None:
    """Sizes a user may ask for (one-line InputError otherwise)."""
    for option, n in (("--train", train), ("--test", test)):
        if not 0 <= n <= 1_000_000:
            raise InputError(f"must be from 0 to 1000000 (got {n})", field=option)
    if train + test == 0:
        raise InputError("nothing to generate: give --train or --test", field="--train")


def make_cases(kb: KnowledgeBase, seed: int, train: int, test: int) -> list[Case]:
    """The training cases then the test cases of a seed."""
    check_counts(train, test)
    return [*generate(kb, seed, "train", train), *generate(kb, seed, "test", test)]


def store_cases(store: CaseStore, cases: list[Case]) -> CaseImportReport:
    """Store generated cases: new ones added, changed ones replaced, the same left alone."""
    return store.import_cases(cases)


@dataclass
class Rewritten:
    """What the patient-voice rewrite did."""

    cases: list[Case] = field(default_factory=list)
    failures: list[tuple[str, str]] = field(default_factory=list)  # (case id, reason)


def _with_voice(case: Case, text: str, model: str) -> Case:
    profile = case.patient.model_copy(update={"opening": text,
                                              "history_of_present_illness": text})
    note = (f"{case.notes or ''} Narrative rewritten in the patient's voice by {model} "
            f"(prompt {AH_REWRITE.id}, sha256 {AH_REWRITE.sha256[:12]}); the generated "
            f"text was: {case.patient.opening}").strip()
    return case.model_copy(update={"patient": profile, "notes": note})


async def rewrite(cases: list[Case], spec: AgentSpec, llm: LLMClient, *,
                  concurrency: int = 4, progress: Progress | None = None) -> Rewritten:
    """Each case's account told again in the patient's own voice by a model (what the
    patient knows only: the account and who they are). A failed call keeps the generated
    text and is listed."""
    gate = asyncio.Semaphore(max(1, concurrency))
    out = Rewritten(cases=list(cases))
    done = 0

    async def one(i: int, case: Case) -> None:
        nonlocal done
        enc = encounter_of(case)
        text = AH_REWRITE.format(who=enc.who, account=enc.account)
        async with gate:
            try:
                reply = await llm.complete(spec, [{"role": "user", "content": text}])
            except BedsideError as err:
                out.failures.append((case.id, str(err)))
                reply = None
        said = " ".join((reply.text if reply else "").split())
        if said:
            out.cases[i] = _with_voice(case, said[:2000], spec.model or "model")
        elif reply is not None:
            out.failures.append((case.id, "the model returned no text"))
        done += 1
        if progress is not None:
            progress(done, len(cases))

    await asyncio.gather(*(one(i, c) for i, c in enumerate(cases)))
    return out


def run_cases(store: CaseStore, bundled: list[Case], configs: list[ConsultationConfig],
              spec: str | None, limit: int | None, *, one_step: bool = False) -> list[Case]:
    """The cases a run of these configurations plays. The Agent Hospital task plays
    generated patients only (by default the test patients of every seed generated); the
    interactive consultation plays the library, and generated patients only when `--cases`
    names them."""
    from core.selection import select_cases
    from core.solvers.registry import AGENTHOSPITAL, task_of
    from core.usecases.library import GENERATED_SOURCES, library

    tasks = {task_of(c.solver) for c in configs}
    if one_step and tasks != {"interactive"}:
        raise InputError("the upper bound is the interactive consultation's: leave out "
                         "--one-step with another --task", field="--one-step")
    if AGENTHOSPITAL not in tasks:
        return select_cases(library(store, bundled, generated=bool(spec)), spec, limit)
    if len(tasks) > 1:
        raise InputError("one task per run: the tasks play different cases", field="--task")
    universe = store.list_cases(sources=GENERATED_SOURCES)
    if not spec:
        universe = [c for c in universe if f"{SOURCE}:test" in c.tags]
        if not universe:
            raise InputError("no generated Agent Hospital test patients yet: run `bedside "
                             "agenthospital generate --test N` first", field="--cases")
    elif not universe:
        raise InputError("no generated Agent Hospital patients yet: run `bedside "
                         "agenthospital generate` first", field="--cases")
    return select_cases(universe, spec, limit)


def next_patient(store: CaseStore, seen: set[str], physician: str) -> Case | None:
    """The next generated test patient a physician has not played (`seen`: the cases they
    played), in the physician's own order (`core.usecases.play.play_order`); None when
    there is none. Only the chosen case is read whole (there may be thousands)."""
    from core.usecases.play import play_order

    ids = [cid for cid, label in store.case_labels().items()
           if label.source == SOURCE and "-test-" in cid]
    for case_id in play_order(ids, physician):
        if case_id not in seen:
            return store.get_case(case_id)
    return None
