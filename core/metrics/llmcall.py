"""How the LLM-based metrics call a model: through an injected `complete` callable (the
caller builds one on a model, e.g. `core.agents.llm_agents.complete_from_spec`; tests pass
plain functions), so no metric reaches a model client itself. Also tolerant parsing of
JSON-ish replies.

Model replies are untrusted text: they are parsed, never evaluated, and stored truncated.
"""

from __future__ import annotations

import ast
import json
import re
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from typing import Any

from core.config import AgentSpec

Messages = list[dict[str, str]]
# `await complete(messages)` gives the reply text, or an object with `.text` (a core Reply).
Complete = Callable[[Messages], Awaitable[Any]]
RAW_KEEP = 2000  # characters of a raw reply kept in a metric's detail


@dataclass(frozen=True)
class JudgeInfo:
    """Who produced an LLM-based metric: recorded with every value."""

    model: str | None = None
    params: dict[str, Any] = field(default_factory=dict)
    #: The judge's name its values are stored under when it is not the model's own
    #: (`--rating-patient own`: `patient:own#H`; see `core.metrics.identity`).
    rater: str | None = None


def spec_info(spec: AgentSpec) -> JudgeInfo:
    """The recordable description of a spec: model and sampling parameters, never a key."""
    return JudgeInfo(spec.model, spec.params())


async def call_text(complete: Complete, messages: Messages) -> tuple[str, Any]:
    """Call and return (text, full reply). Plain-string callables give (text, None)."""
    reply = await complete(messages)
    if isinstance(reply, str):
        return reply, None
    return str(getattr(reply, "text", "") or ""), reply


_FENCE = re.compile(r"```(?:json)?\s*(.*?)```", re.DOTALL | re.IGNORECASE)


def parse_json_object(text: str) -> dict[str, Any] | None:
    """The first JSON object in a reply, tolerating code fences, prose around it, single
    quotes, trailing commas and Python literals. None when there is none."""
    if not text:
        return None
    candidates = [m.group(1) for m in _FENCE.finditer(text)] + [text]
    for chunk in candidates:
        start = chunk.find("{")
        while start != -1:
            body = _balanced(chunk, start)
            if body:
                parsed = _loads(body)
                if isinstance(parsed, dict):
                    return parsed
            start = chunk.find("{", start + 1)
    return None


def _balanced(text: str, start: int) -> str | None:
    depth, quote = 0, None
    for i in range(start, len(text)):
        ch = text[i]
        if quote:
            if ch == quote and text[i - 1] != "\\":
                quote = None
        elif ch in "\"'":
            quote = ch
        elif ch == "{":
            depth += 1
        elif ch == "}":
            depth -= 1
            if depth == 0:
                return text[start:i + 1]
    return None


def _loads(body: str) -> Any:
    cleaned = re.sub(r",\s*([}\]])", r"\1", body)
    try:
        return json.loads(cleaned)
    except ValueError:
        pass
    try:  # single quotes, True/None: a literal, never code
        return ast.literal_eval(cleaned)
    except (ValueError, SyntaxError, MemoryError, RecursionError):
        return None


def key_values(text: str) -> dict[str, str]:
    """Fallback for replies that are not JSON: 'name: value' / 'name = value' pairs."""
    pairs = re.findall(r"[\"']?([A-Za-z_][A-Za-z _-]{1,40})[\"']?\s*[:=]\s*[\"']?([^\n,;\"'}]+)",
                       text or "")
    return {k.strip(): v.strip() for k, v in pairs}


def norm_key(key: str) -> str:
    """A reply's key in snake case: 'Consult again' → 'consult_again'."""
    return re.sub(r"[^a-z0-9]+", "_", str(key).casefold()).strip("_")
