"""One doctor turn with the doctor's tools: reasoning, searches and reflection before the
message of the turn is committed (`core.solvers.interactive.commit_turn`).

Within doctor turn N the doctor may be asked several times; only the message that is said
to the patient or the examiner is the doctor turn. Everything else is a turn of role
`tool`, numbered N (it belongs to that turn) and never counted:
- `reasoning` (chain of thought): the reasoning before the message, split from the same
  reply (`REASONING:` … `MESSAGE:`); the reply's usage and raw request stay with it;
- `search` and `search_result` (retrieval, web search): the doctor's `SEARCH: <query>` and
  the passages found, with their sources in the result's meta; the doctor is then asked
  again. The consultation has `searches` of them; a search asked for after the last one is
  refused and takes the doctor's turn (so a doctor that only searches still reaches the end
  of its budget);
- `draft` and `critique` (reflection): a diagnosis the doctor is about to commit is kept as
  a draft, the doctor critiques it (`critique/v1`), and is asked for its final message
  (`reflect/v1`): a diagnosis, revised or not, or a further question or test request. One
  reflection per doctor turn.
The scripted doctor, with a search tool, searches once for its leading hypothesis when it
is about to diagnose (offline: the tool path runs without a model).
"""

from __future__ import annotations

import re
import time
from typing import Any

from core import prompts
from core.agents.base import ENDS, DeltaFn, Reply
from core.agents.factory import Cast
from core.agents.llm_agents import LLMDoctor
from core.protocol import parse_doctor_message
from core.retrieval.search import Searcher
from core.solvers.context import SolverContext
from core.solvers.interactive import commit_turn
from core.solvers.solution import Solution
from core.transcript import Role, utc_now

_MESSAGE = re.compile(r"^[ \t*_#]*MESSAGE[ \t*_]*:[ \t*_]*", re.IGNORECASE | re.MULTILINE)
_REASONING = re.compile(r"^[ \t*_#]*REASONING[ \t*_]*:[ \t*_]*", re.IGNORECASE | re.MULTILINE)
_ACTION = re.compile(r"^[ \t*_]*(REQUEST[ \t]+TESTS?|DIAGNOSIS[ \t]+READY|SEARCH)[ \t*_]*:",
                     re.IGNORECASE | re.MULTILINE)
_SEARCH = re.compile(r"^[ \t*_]*SEARCH[ \t*_]*:[ \t*_]*(.*)$", re.IGNORECASE | re.MULTILINE)
MAX_QUERY = 300
NO_SEARCHES_LEFT = ("No searches left in this consultation: ask the patient, request a test "
                    "or give your diagnosis.")
Started = tuple[str, float]


def split_reasoning(text: str) -> tuple[str | None, str, str]:
    """(reasoning, message, how) of a chain-of-thought reply. `how` says what was found:
    'marker' (`MESSAGE:`), 'action_line' (no marker, but a line with an action: what comes
    before it is reasoning), 'no_message' (reasoning only: nothing is said), or 'none'
    (no reasoning: the whole reply is the message)."""
    markers = list(_MESSAGE.finditer(text))
    if markers:
        last = markers[-1]
        reasoning, message, how = text[:last.start()], text[last.end():], "marker"
    elif (action := _ACTION.search(text)) and text[:action.start()].strip():
        reasoning, message, how = text[:action.start()], text[action.start():], "action_line"
    elif _REASONING.match(text):
        reasoning, message, how = text, "", "no_message"
    else:
        return None, text.strip(), "none"
    reasoning = _REASONING.sub("", reasoning, count=1).strip()
    return reasoning or None, message.strip(), how


def search_query(message: str) -> str | None:
    """The query of a message whose first action line is `SEARCH: <query>`, else None."""
    first = _ACTION.search(message)
    if first is None or not first.group(1).upper().startswith("SEARCH"):
        return None
    m = _SEARCH.search(message, first.start())
    return " ".join(m.group(1).split())[:MAX_QUERY] if m else ""


class ToolTurns:
    """The doctor turns of one consultation with tools (`turn` is a `TurnFn`)."""

    def __init__(self, tools: tuple[str, ...], searcher: Searcher | None, searches: int,
                 doctor: LLMDoctor | None) -> None:
        self.cot = bool({"zero_shot_cot", "one_shot_cot"} & set(tools))
        self.reflect = "reflection" in tools and doctor is not None
        self.searcher, self.searches_left = searcher, searches
        self.doctor = doctor  # the model doctor; None for the scripted one
        self.searched = 0

    async def turn(self, ctx: SolverContext, cast: Cast, dt: int,
                   solution: Solution) -> str | None:
        """Doctor turn `dt`: ask until the doctor says something, then commit it."""
        reflected = False
        while True:
            index = ctx.start_turn(Role.DOCTOR, dt)
            started = (utc_now(), time.perf_counter())
            reply = await ctx.guard(cast.doctor.act(ctx.doctor_state(dt),
                                                    ctx.delta(index, Role.DOCTOR)))
            reasoning, message, how = (split_reasoning(reply.text) if self.cot
                                       else (None, reply.text, "none"))
            query = search_query(message) if self.searcher and self.doctor else None
            if how == "no_message":
                self._tool(ctx, dt, "reasoning", reply, reasoning or "", started,
                           {"format": how})
                ctx.doctor_turns = dt  # reasoning that led to nothing said: the turn is used
                return None
            first = self._reasoning(ctx, dt, reply, reasoning, how, started)
            if query is not None:
                if not await self._search(ctx, dt, reply if first is None else None,
                                          query, first or started):
                    ctx.doctor_turns = dt
                    return None
                continue
            is_diagnosis = parse_doctor_message(message).kind == "diagnosis"
            if self.reflect and is_diagnosis and not reflected and not reply.meta.get(ENDS):
                await self._reflect(ctx, dt, reply if first is None else None, message,
                                    first or started)
                reflected = True
                continue
            if is_diagnosis and self.searcher and self.doctor is None and not self.searched:
                # The scripted doctor looks up its leading hypothesis before committing.
                diagnosis = parse_doctor_message(message).diagnosis or ""
                await self._search(ctx, dt, Reply(text=diagnosis, model=reply.model),
                                   diagnosis, started,
                                   {"by": "scripted doctor: its leading hypothesis"})
                started = (utc_now(), time.perf_counter())
            final = reply if first is None else Reply(text=message, model=reply.model,
                                                      report=reply.report, meta=reply.meta)
            final.text = message  # without the reasoning (the patient never hears it)
            if self.cot:  # how the reply was split, to count format slips
                final.meta = {**final.meta, "reasoning_format": how}
            return await commit_turn(ctx, cast, dt, final, first or started, solution)

    # -- steps -----------------------------------------------------------------------------
    def _tool(self, ctx: SolverContext, dt: int, kind: str, reply: Reply | None, text: str,
              started: Started, meta: dict[str, Any] | None = None) -> None:
        """Record a tool turn; `reply` (the model call it came from) gives its usage, model
        and raw request, or None when another turn of the same call holds them."""
        call = reply if reply is not None else Reply(text=text)
        shown = Reply(text=text, usage=call.usage, model=call.model,
                      raw_request=call.raw_request, raw_response=call.raw_response,
                      meta=dict(call.meta))
        ctx.reply_turn(len(ctx.turns), Role.TOOL, shown, kind=kind, started=started,
                       doctor_turn=dt, meta=meta)

    def _reasoning(self, ctx: SolverContext, dt: int, reply: Reply, reasoning: str | None,
                   how: str, started: Started) -> Started | None:
        """Record the reasoning before the message (holding the call); the start time of
        what follows, or None when there was no reasoning."""
        if reasoning is None:
            return None
        self._tool(ctx, dt, "reasoning", reply, reasoning, started, {"format": how})
        return (utc_now(), time.perf_counter())

    async def _search(self, ctx: SolverContext, dt: int, reply: Reply | None, query: str,
                      started: Started, meta: dict[str, Any] | None = None) -> bool:
        """Record the doctor's search and what it found; False when no search was left
        (refused: the doctor's turn is used)."""
        assert self.searcher is not None
        refused = self.searches_left <= 0
        self._tool(ctx, dt, "search", reply, query, started,
                   {**(meta or {}), "refused": True} if refused else meta)
        t0 = (utc_now(), time.perf_counter())
        if refused:
            self._tool(ctx, dt, "search_result", None, NO_SEARCHES_LEFT, t0,
                       {"query": query, "refused": True, "passages": []})
            return False
        self.searches_left -= 1
        self.searched += 1
        outcome = await ctx.guard(self.searcher.search(query))
        self._tool(ctx, dt, "search_result", None, outcome.words(), t0, outcome.meta())
        return True

    async def _reflect(self, ctx: SolverContext, dt: int, reply: Reply | None, draft: str,
                       started: Started) -> None:
        """Keep the draft, then have the doctor critique it; the final message is the
        next call's (its dialogue ends with the critique and the request for the final
        message, `core.agents.doctor_history`)."""
        assert self.doctor is not None
        self._tool(ctx, dt, "draft", reply, draft, started)
        critique, then = prompts.get("critique/v1"), prompts.get("reflect/v1")
        meta = {"prompt_id": critique.id, "prompt_hash": critique.sha256,
                "then_prompt_id": then.id, "then_prompt_hash": then.sha256}
        doctor = self.doctor

        async def call(on_delta: DeltaFn) -> Reply:
            msgs = doctor.messages(ctx.turns, False)
            msgs.append({"role": "user", "content": critique.text})
            return await doctor.client.complete(doctor.spec, msgs, on_delta)

        await ctx.speak(Role.TOOL, "critique", call, doctor_turn=dt, meta=meta)
