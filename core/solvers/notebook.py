"""The doctor's notebook: at most 1,000 characters, read at the start of each consultation
and rewritten at its end, kept across the consultations of one configuration in a run.

The solver that keeps one is `sequential` (the batch plays the configuration's cases one
after another, in case order), so each consultation reads the version the one before it
wrote. Each version is a `notebook_write` turn (role `tool`) of the consultation that wrote
it, committed with the turn; what a consultation read is its `notebook_read` turn. The
current page lives in the run's `RunState`; a resumed run seeds it (`seed`) from the last
version written by a finished or failed consultation of the run, so an attempt a kill cut
short (superseded when redone) never counts, and the versions go on in case order.

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
    """The RunState key of one configuration's notebook."""
    return f"notebook:{config_key}"


def current(state: RunState, config_key: str) -> Page:
    """The configuration's notebook now (an empty page before the first write)."""
    page = state.get(key(config_key))
    return page if isinstance(page, Page) else Page()


def seed(state: RunState, versions: list[NotebookVersion],
         case_order: list[str]) -> None:
    """Continue each configuration's notebook from the versions a run stored: the last one
    in case order (a resumed run's finished and failed consultations form the start of the
    order, the cases still to play come after them)."""
    position = {case_id: i for i, case_id in enumerate(case_order)}
    by_key: dict[str, list[NotebookVersion]] = {}
    for v in versions:
        by_key.setdefault(v.config_key, []).append(v)
    for config_key, found in by_key.items():
        found.sort(key=lambda v: position.get(v.case_id, len(position)))
        last = found[-1]
        state.put(key(config_key), Page(text=last.text, version=last.version or len(found),
                                        written_by=last.consultation_id,
                                        case_id=last.case_id))


def read(ctx: SolverContext) -> Page:
    """Read the notebook at the start of the consultation (a `notebook_read` turn)."""
    page = current(ctx.run_state, ctx.config.config_key())
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
    ctx.run_state.put(key(ctx.config.config_key()), new)
    return new
