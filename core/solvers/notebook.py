"""The doctor's notebook: at most 1,000 characters, read at the start of each consultation
and rewritten at its end, kept across the consultations of one configuration in a run.

The solver that keeps one is `sequential` (the batch plays the configuration's cases one
after another, in case order), so each consultation reads the version the one before it
wrote. Each version is a `notebook_write` turn (role `tool`) of the consultation that wrote
it, committed with the turn; what a consultation read is its `notebook_read` turn. The
pages live in the run's `RunState`, by case position: a consultation reads the version the
last case before it wrote. A resumed run seeds them (`seed`) from the versions written by
finished or failed consultations of the run, so an attempt a kill cut short (superseded
when redone) never counts, and the versions go on in case order (a failed case redone with
`--retry-failed` after later ones still reads the version of the case before it).

A model doctor rewrites its notebook itself (one call, the doctor's dialogue and our
request; the reply is cut to the limit, and the cut recorded). The scripted doctor keeps,
deterministically, one line per case: the objective's opening and its diagnosis, oldest
lines dropped to stay within the limit.
"""

from __future__ import annotations

import time
from dataclasses import dataclass

from core import prompts
from core.agents.base import Reply
from core.agents.factory import Cast
from core.agents.llm_agents import LLMDoctor
from core.records.tools import NotebookVersion
from core.retrieval.documents import clean
from core.solvers.context import SolverContext
from core.solvers.solution import RunState, Solution
from core.transcript import Role, Turn, utc_now

LIMIT = 1000  # characters (AgentClinic's notebook size)
EMPTY = "(empty: this is your first consultation)"
WRITE_PROMPT = "notebook/v1"
SYSTEM_PROMPT = "tool-notebook/v1"


@dataclass(frozen=True)
class Page:
    """The notebook as it stands: its text, its version (0: never written), and the
    consultation and case that wrote it."""

    text: str = ""
    version: int = 0
    written_by: str | None = None
    case_id: str | None = None


def key(config_key: str) -> str:
    """The RunState key of one configuration's notebook: its pages by case position."""
    return f"notebook:{config_key}"


_ORDER = "notebook:case-order"  # case id → its position in the run


def set_case_order(state: RunState, case_ids: list[str]) -> None:
    """The run's cases in order, so a consultation reads the version written by the last
    case before its own (also when a failed case is redone after later ones)."""
    state.put(_ORDER, {case_id: i for i, case_id in enumerate(case_ids)})


def _pages(state: RunState, config_key: str) -> dict[int, Page]:
    pages = state.get(key(config_key))
    if not isinstance(pages, dict):
        pages = {}
        state.put(key(config_key), pages)
    return pages


def _position(state: RunState, case_id: str | None) -> int | None:
    order = state.get(_ORDER) or {}
    return order.get(case_id) if case_id is not None else None


def current(state: RunState, config_key: str, case_id: str | None = None) -> Page:
    """The notebook as `case_id` finds it: the version the last case before it (in the
    run's case order) wrote; without a known order, the last version written. An empty
    page before the first write."""
    pages = _pages(state, config_key)
    before = _position(state, case_id)
    eligible = [k for k in pages if before is None or k < before]
    return pages[max(eligible)] if eligible else Page()


def _keep(state: RunState, config_key: str, page: Page) -> None:
    pages = _pages(state, config_key)
    at = _position(state, page.case_id)
    pages[at if at is not None else max(pages, default=-1) + 1] = page


def seed(state: RunState, versions: list[NotebookVersion],
         case_order: list[str]) -> None:
    """Continue each configuration's notebook from the versions a run stored (those of
    its finished and failed consultations), each at its case's place in the order."""
    set_case_order(state, case_order)
    for v in versions:
        _keep(state, v.config_key, Page(text=v.text, version=v.version or 0,
                                        written_by=v.consultation_id, case_id=v.case_id))


def read(ctx: SolverContext) -> Page:
    """Read the notebook at the start of the consultation (a `notebook_read` turn)."""
    page = current(ctx.run_state, ctx.config.config_key(), ctx.case.id)
    meta = {"version": page.version, "written_by": page.written_by,
            "written_for_case": page.case_id, "chars": len(page.text)}
    ctx.add_turn(Turn(index=len(ctx.turns), role=Role.TOOL, kind="notebook_read",
                      content=page.text, started_at=utc_now(), ended_at=utc_now(),
                      meta={k: v for k, v in meta.items() if v is not None}))
    return page


def system_paragraph(page: Page) -> str:
    """What the model doctor's system prompt says of its notebook."""
    return prompts.get(SYSTEM_PROMPT).format(limit=LIMIT, notebook=page.text or EMPTY)


def _scripted_text(page: Page, objective: str, diagnosis: str | None) -> str:
    opening = " ".join(objective.split())[:80]
    lines = [line for line in page.text.split("\n") if line.strip()]
    lines.append(f"- {opening} -> {diagnosis or 'no diagnosis'}")
    while len("\n".join(lines)) > LIMIT and len(lines) > 1:
        lines.pop(0)
    return "\n".join(lines)[:LIMIT]


async def _model_text(ctx: SolverContext, doctor: LLMDoctor, index: int) -> Reply:
    msgs = doctor.messages(ctx.turns, False)
    msgs.append({"role": "user", "content": prompts.get(WRITE_PROMPT).format(limit=LIMIT)})
    return await ctx.guard(doctor.client.complete(doctor.spec, msgs,
                                                  ctx.delta(index, Role.TOOL)))


async def write(ctx: SolverContext, cast: Cast, page: Page, solution: Solution) -> Page:
    """Rewrite the notebook at the end of the consultation (a `notebook_write` turn) and
    keep the new page for the run's next consultation of this configuration."""
    index = ctx.start_turn(Role.TOOL)
    started = (utc_now(), time.perf_counter())
    meta: dict[str, object] = {"version": page.version + 1}
    if isinstance(cast.doctor, LLMDoctor):
        reply = await _model_text(ctx, cast.doctor, index)
        raw = clean(reply.text)
        meta.update(prompt_id=WRITE_PROMPT, prompt_hash=prompts.get(WRITE_PROMPT).sha256,
                    chars_written=len(raw), truncated=len(raw) > LIMIT)
        reply.text = raw[:LIMIT]
    else:
        reply = Reply(text=_scripted_text(page, ctx.doctor_view.objective, solution.diagnosis),
                      model=ctx.config.doctor.display())
    ctx.reply_turn(index, Role.TOOL, reply, kind="notebook_write", started=started, meta=meta)
    new = Page(text=reply.text, version=page.version + 1, written_by=ctx.cid,
               case_id=ctx.case.id)
    _keep(ctx.run_state, ctx.config.config_key(), new)
    return new
