"""The doctor with tools, as a solver: AgentClinic's consultation (`core.solvers.interactive`)
with chain of thought, reflection, a notebook and searches (`core.doctortools`).

Options (recorded with the run, in the configuration's key): `tools` (canonical order),
`web_search` (the endpoint URL, with the `web_search` tool), `passages` per search (3) and
`searches` per consultation (5). Played as:
1. with `notebook`: the notebook is read (`core.solvers.notebook`) and, for a model
   doctor, put in its system prompt; the solver is then `sequential`
   (`NotebookToolSolver`), so the batch plays the configuration's cases one after
   another, in case order;
2. the model doctor's system prompt gains the tools' paragraphs (`core.prompts.tool_texts`);
3. the consultation, each doctor turn with the tools' steps (`core.solvers.tool_turn`);
4. with `notebook`: the notebook is rewritten (after the report, if one is asked for).

The corpus a search reads is the run's (`attach_corpus`, done by the run use case with
the project's store); a consultation played without one finds nothing in it and says so.
"""

from __future__ import annotations

from typing import Any

from pydantic import BaseModel, ConfigDict, Field, field_validator, model_validator

from core import prompts
from core.agents.llm_agents import LLMDoctor
from core.config import ConsultationConfig
from core.doctortools import SEARCH_TOOLS, TOOLS, check_doctor, parse_tools
from core.ports.tools import CorpusSearch
from core.retrieval.search import Searcher
from core.retrieval.web import WebSearch, check_url
from core.solvers import notebook
from core.solvers.base import BaseSolver
from core.solvers.context import SolverContext
from core.solvers.interactive import consult
from core.solvers.solution import RunState, Solution
from core.solvers.registry import TOOLS_SOLVER
from core.solvers.tool_turn import ToolTurns

_CORPUS = "service:corpus"  # the RunState key of the run's corpus


def attach_corpus(state: RunState, corpus: CorpusSearch) -> None:
    """Give the run's consultations this corpus to search."""
    state.put(_CORPUS, corpus)


def corpus_of(state: RunState) -> CorpusSearch | None:
    """The run's corpus, if one was attached."""
    return state.get(_CORPUS)


class ToolOptions(BaseModel):
    """The options of the `tools` solver."""

    model_config = ConfigDict(extra="forbid")

    tools: list[str] = Field(min_length=1, description="The doctor tools, in canonical "
                             "order (core.doctortools.TOOLS).")
    web_search: str | None = Field(None, description="The web search endpoint (a "
                                   "SearxNG-style JSON URL), with the web_search tool.")
    passages: int = Field(3, ge=1, le=10, description="Passages a search returns.")
    searches: int = Field(5, ge=0, le=50, description="Searches in one consultation.")

    @field_validator("tools")
    @classmethod
    def _known(cls, value: list[str]) -> list[str]:
        return list(parse_tools("+".join(value), field="tools"))

    @model_validator(mode="after")
    def _web(self) -> ToolOptions:
        if ("web_search" in self.tools) != (self.web_search is not None):
            raise ValueError("web_search (the endpoint URL) goes with the web_search tool")
        if self.web_search is not None:
            check_url(self.web_search, field="web_search")
        return self


def tool_prompts(tools: list[str]) -> dict[str, str]:
    """Prompt id → sha256 of every prompt the tools add to a model doctor's."""
    return {pid: prompts.get(pid).sha256 for t in tools for pid in prompts.TOOL_PROMPTS[t]}


class ToolSolver(BaseSolver):
    """The interactive consultation with the doctor's tools."""

    name = TOOLS_SOLVER
    options_model = ToolOptions

    @property
    def opts(self) -> ToolOptions:
        """The validated options."""
        assert isinstance(self.options, ToolOptions)
        return self.options

    def describe(self, config: ConsultationConfig, described: dict[str, Any]) -> dict[str, Any]:
        """The configuration, with the hashes of the prompts the tools add (model doctor)."""
        if config.doctor.kind == "llm":
            described["prompts"] = {**described.get("prompts", {}),
                                    **tool_prompts(self.opts.tools)}
        return described

    def _searcher(self, ctx: SolverContext) -> Searcher | None:
        tools = set(self.opts.tools)
        if not tools & SEARCH_TOOLS:
            return None
        corpus = corpus_of(ctx.run_state) if "retrieval" in tools else None
        web = WebSearch(self.opts.web_search) if self.opts.web_search else None
        return Searcher(corpus, web, self.opts.passages)

    def _instruct(self, doctor: LLMDoctor, searcher: Searcher | None,
                  page: notebook.Page | None) -> None:
        """Add the tools' paragraphs to the model doctor's system prompt."""
        tools = self.opts.tools
        parts = []
        if "zero_shot_cot" in tools or "one_shot_cot" in tools:
            pid = "tool-cot-zero/v1" if "zero_shot_cot" in tools else "tool-cot-one/v1"
            parts.append(prompts.get(pid).text)
        if searcher is not None:
            parts.append(prompts.get("tool-search/v1").format(
                sources=searcher.sources, searches=self.opts.searches))
        if page is not None:
            parts.append(notebook.system_paragraph(page))
        doctor.system = "\n\n".join([doctor.system, *parts])

    async def solve(self, ctx: SolverContext) -> Solution:
        """Notebook read, the consultation with tools, notebook rewritten."""
        tools = tuple(self.opts.tools)
        check_doctor(tools, ctx.config.doctor.kind, TOOLS_SOLVER, field="solver_options")
        cast = ctx.cast()
        doctor = cast.doctor if isinstance(cast.doctor, LLMDoctor) else None
        page = notebook.read(ctx) if "notebook" in tools else None
        searcher = self._searcher(ctx)
        if doctor is not None:
            self._instruct(doctor, searcher, page)
        turns = ToolTurns(tools, searcher, self.opts.searches, doctor)
        solution = await consult(ctx, cast, turns.turn)
        if page is not None:
            await notebook.write(ctx, cast, page, solution)
        return solution


class NotebookToolSolver(ToolSolver):
    """The same with a notebook, kept from one case to the next: the batch plays the
    configuration's cases in case order, one at a time."""

    sequential = True


def make_tool_solver(options: dict[str, Any]) -> ToolSolver:
    """The `tools` solver for these options (sequential when it keeps a notebook)."""
    tools = options.get("tools") if isinstance(options, dict) else None
    if isinstance(tools, list) and "notebook" in tools:
        return NotebookToolSolver(options)
    return ToolSolver(options)


__all__ = ["TOOLS", "TOOLS_SOLVER", "NotebookToolSolver", "ToolOptions", "ToolSolver",
           "attach_corpus", "corpus_of", "make_tool_solver", "tool_prompts"]
