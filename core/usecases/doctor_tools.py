"""What a run of doctors with tools needs from the project, headless: the corpus their
searches read (the project's store), checked to hold something before a run that searches
it is created, and the notebooks a resumed run continues (`core.solvers.notebook.seed`:
from the last version its finished or failed consultations wrote, in case order)."""

from __future__ import annotations

from core.config import ConsultationConfig
from core.errors import InputError
from core.ports.runs import RunsStore
from core.solvers.solution import RunState


def _tools(config: ConsultationConfig) -> list[str]:
    if config.solver != "tools":
        return []
    return list(config.solver_options.get("tools") or [])


def shares_notebook(configs: list[ConsultationConfig]) -> bool:
    """Whether a doctor of the run keeps the notebook, which the run's consultations share
    in one process's memory as they go (so the run cannot be spread over processes)."""
    return any("notebook" in _tools(c) for c in configs)


def check_sources(store: RunsStore, configs: list[ConsultationConfig]) -> None:
    """Refuse a run whose doctors search the corpus while it is empty (one line)."""
    if any("retrieval" in _tools(c) for c in configs) and not store.corpus_documents():
        raise InputError("the retrieval tool searches the corpus, which is empty: add "
                         "documents with `bedside corpus add DIR` first", field="--doctor-tool")


def run_state(store: RunsStore, run_id: str, configs: list[ConsultationConfig],
              case_ids: list[str]) -> RunState:
    """The memory a run's consultations share: the corpus to search and, on resume, the
    notebooks as the run left them (`case_ids`: the run's cases, in order)."""
    from core.solvers import notebook
    from core.solvers.tools import attach_corpus

    state = RunState()
    if not any(_tools(c) for c in configs):
        return state
    attach_corpus(state, store)
    if any("notebook" in _tools(c) for c in configs):
        # (a new run has no version yet: this gives the pages their case order)
        notebook.seed(state, store.notebook_versions(run_id), case_ids)
    return state
