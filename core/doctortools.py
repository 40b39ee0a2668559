"""Doctor tools: the catalogue, how tools compose, and which doctors can use them.

A doctor tool is configuration of the doctor strategy, not a branch in the engine:
`bedside run --doctor-tool NAME` (several together joined with '+', several values for a
sweep) plays the consultation with the `tools` solver (`core.solvers.tools`), which is the
interactive consultation with the tools' steps added, and records the tools in the
configuration's `solver_options` (so in its key and its stored description). No tool is
the default interactive consultation, with its key unchanged.

What composes with what:
- every tool composes with every other, except the two chains of thought (one format of
  reasoning at a time: `zero_shot_cot+one_shot_cot` is refused);
- `zero_shot_cot`, `one_shot_cot` and `reflection` need a model doctor (the scripted doctor
  does not reason aloud); `notebook`, `retrieval` and `web_search` also work with the
  scripted doctor, offline (it searches for its leading hypothesis before it diagnoses and
  keeps a notebook of the cases it saw, deterministically);
- a replay doctor says its file's messages: no tool applies to it;
- tools play the interactive consultation; a configuration with another doctor strategy
  takes none (refused with one line).

Tool steps are turns of role `tool` (`Role.TOOL`) with the kinds in `TOOL_KINDS`: the
doctor sees them, the patient, the examiner and the raters never do, and none is a doctor
turn of the budget.
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from typing import Any

from core.errors import InputError
from core.retrieval.web import WEB_SEARCH_ENV, check_url

NONE = "none"


@dataclass(frozen=True)
class ToolInfo:
    """One doctor tool."""

    name: str
    summary: str  # one line for help texts and the README
    needs_model: bool  # True: the scripted doctor cannot use it


TOOLS: dict[str, ToolInfo] = {t.name: t for t in (  # in canonical order
    ToolInfo("zero_shot_cot", "thinks step by step before each message; its reasoning is a "
             "turn of its own", True),
    ToolInfo("one_shot_cot", "the same, after a worked example of our own", True),
    ToolInfo("reflection", "critiques its draft diagnosis before committing: a draft, a "
             "critique, then the final message", True),
    ToolInfo("notebook", "a notebook of at most 1,000 characters, read at the start of each "
             "consultation and rewritten at its end, kept across the run's cases in case "
             "order", False),
    ToolInfo("retrieval", "decides when to search the local corpus (`SEARCH: <query>`)",
             False),
    ToolInfo("web_search", "the same searches, answered by the web search endpoint named by "
             f"${WEB_SEARCH_ENV}", False),
)}
#: Tools that cannot be used together, with why.
EXCLUSIVE: tuple[tuple[frozenset[str], str], ...] = (
    (frozenset({"zero_shot_cot", "one_shot_cot"}), "one chain of thought at a time"),
)
#: The kinds of tool turns.
TOOL_KINDS = ("notebook_read", "reasoning", "search", "search_result", "draft", "critique",
              "notebook_write")
SEARCH_TOOLS = frozenset({"retrieval", "web_search"})
CHAINS = frozenset({"zero_shot_cot", "one_shot_cot"})


def parse_tools(text: str, *, field: str = "--doctor-tool") -> tuple[str, ...]:
    """One `--doctor-tool` value ('none', a tool, or tools joined with '+') as the tools in
    canonical order; a one-line InputError for an unknown name or a nonsensical mix."""
    parts = [p.strip().replace("-", "_") for p in text.split("+")]
    if not all(parts):
        raise InputError(f"'{text}' has an empty part (join tools with '+')", field=field)
    if parts == [NONE]:
        return ()
    if NONE in parts:
        raise InputError(f"'none' cannot be joined with tools (got '{text}')", field=field)
    unknown = [p for p in parts if p not in TOOLS]
    if unknown:
        raise InputError(f"unknown doctor tool '{unknown[0]}' (known: none, "
                         f"{', '.join(TOOLS)})", field=field)
    if len(set(parts)) != len(parts):
        raise InputError(f"'{text}' names a tool twice", field=field)
    chosen = set(parts)
    for group, why in EXCLUSIVE:
        if group <= chosen:
            raise InputError(f"{' and '.join(t for t in TOOLS if t in group)} cannot be used "
                             f"together ({why})",
                             field=field)
    return tuple(name for name in TOOLS if name in chosen)


def label(tools: tuple[str, ...] | list[str]) -> str:
    """The tools as one value's text ('notebook+retrieval'; 'none' for none)."""
    return "+".join(tools) or NONE


def check_doctor(tools: tuple[str, ...], doctor_kind: str, solver: str,
                 *, field: str = "--doctor-tool") -> None:
    """Refuse, with one line, tools the doctor or the strategy cannot use."""
    if not tools:
        return
    if solver not in ("interactive", "tools"):
        raise InputError(f"doctor tools play the interactive consultation, not the "
                         f"'{solver}' strategy", field=field)
    if doctor_kind == "replay":
        raise InputError("a replay doctor says its file's messages: doctor tools do not "
                         "apply to it", field=field)
    if doctor_kind == "human":
        raise InputError("doctor tools are for model and scripted doctors", field=field)
    if doctor_kind != "llm":
        needing = [t for t in tools if TOOLS[t].needs_model]
        if needing:
            raise InputError(f"{needing[0]} needs a model doctor (the scripted doctor does "
                             "not reason aloud; it can use notebook, retrieval and "
                             "web_search)", field=field)


@dataclass(frozen=True)
class ToolChoice:
    """One `--doctor-tool` value: the tools, and the web search endpoint when one of them
    is `web_search`."""

    tools: tuple[str, ...] = ()
    web_search: str | None = None

    def options(self) -> dict[str, Any]:
        """The `tools` solver's options for this choice (only what differs from its
        defaults, so configuration keys stay short and stable)."""
        options: dict[str, Any] = {"tools": list(self.tools)}
        if self.web_search is not None:
            options["web_search"] = self.web_search
        return options


def choose(text: str, *, field: str = "--doctor-tool") -> ToolChoice:
    """Parse one `--doctor-tool` value; `web_search` takes its endpoint from
    $BEDSIDE_WEB_SEARCH (checked: no credential may be stored with the run)."""
    tools = parse_tools(text, field=field)
    if "web_search" not in tools:
        return ToolChoice(tools)
    url = os.environ.get(WEB_SEARCH_ENV, "").strip()
    if not url:
        raise InputError(f"web_search needs a search endpoint: set {WEB_SEARCH_ENV} to its "
                         "URL (a SearxNG-style JSON endpoint, e.g. "
                         "http://127.0.0.1:8888/search)", field=field)
    return ToolChoice(tools, check_url(url))


def settings_words(described: dict[str, Any]) -> list[str]:
    """A stored configuration's doctor tools in words, as `bedside runs` and the results'
    settings column name settings ('doctor tool notebook+retrieval', 'passages 5'); [] when
    it uses none."""
    if described.get("solver") != "tools":
        return []
    options = dict(described.get("solver_options") or {})
    words = [f"doctor tool {label(list(options.pop('tools', None) or []))}"]
    words += [f"{k.replace('_', ' ')} {v}" for k, v in options.items()]
    return words
