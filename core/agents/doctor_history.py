"""The dialogue as a model doctor sees it: chat messages from the doctor's side.

What the doctor said is the assistant's; what the patient and the examiner answered is
the user's, named. Turns of the doctor's tools (role `tool`, `core.doctortools`) are the
doctor's alone and appear here as the conversation they were: its reasoning before the
message it led to (`REASONING:` … `MESSAGE:`), its `SEARCH:` and the passages that came
back, its draft diagnosis, the critique asked for and given, and the request for the final
message. Under AI Hospital's protocol the patient relays the doctor's test requests to the
examiner: the relayed request is the doctor's own words, left out. The notebook is not part
of the dialogue (it is in the system prompt). The engine's answer to REQUEST IMAGES (a
system turn of kind 'images') is the message its `images` callback makes of it (with the
image parts). Moderator verdicts are never shown to the doctor.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from core import prompts
from core.transcript import Role, Turn

Messages = list[dict[str, Any]]
_SPEAKERS = {Role.PATIENT: "Patient", Role.EXAMINER: "Examiner"}


def _assistant(text: str, reasoning: str | None) -> dict[str, str]:
    if reasoning is None:
        return {"role": "assistant", "content": text}
    return {"role": "assistant", "content": f"REASONING:\n{reasoning}\nMESSAGE: {text}"}


def _tool(turn: Turn, reasoning: str | None) -> Messages:
    """A tool turn as the messages it was in the doctor's conversation."""
    kind = turn.kind
    if kind == "search":
        return [_assistant(f"SEARCH: {turn.content}", reasoning)]
    if kind == "draft":
        return [_assistant(turn.content, reasoning)]
    if kind == "search_result":
        return [{"role": "user", "content": turn.content}]
    if kind == "critique":
        asked = prompts.get(str(turn.meta.get("prompt_id") or "critique/v1")).text
        then = prompts.get(str(turn.meta.get("then_prompt_id") or "reflect/v1")).text
        return [{"role": "user", "content": asked},
                {"role": "assistant", "content": turn.content},
                {"role": "user", "content": then}]
    return []  # notebook turns: the notebook is in the system prompt


def dialogue(turns: list[Turn], *,
             images: Callable[[Turn], dict[str, Any]] | None = None) -> Messages:
    """The turns as the doctor's chat messages (without the system prompt); `images` makes
    the message of an 'images' system turn (left out without it)."""
    msgs: Messages = []
    reasoning: str | None = None  # reasoning waiting for the message it led to
    for t in turns:
        if t.kind == "relay":  # the doctor's own request, relayed by the patient
            continue
        if t.role == Role.TOOL and t.kind == "reasoning":
            if reasoning is not None:  # two in a row: the first led to no message
                msgs.append({"role": "assistant", "content": f"REASONING:\n{reasoning}"})
            reasoning = t.content
            continue
        if t.role == Role.DOCTOR:
            msgs.append(_assistant(t.content, reasoning))
        elif t.role in _SPEAKERS:
            msgs.append({"role": "user", "content": f"{_SPEAKERS[t.role]}: {t.content}"})
        elif t.role == Role.TOOL:
            msgs.extend(_tool(t, reasoning))
            if t.kind not in ("search", "draft"):
                continue  # the reasoning still waits for its message
        elif t.role == Role.SYSTEM and t.kind == "images" and images is not None:
            msgs.append(images(t))
            continue
        else:
            continue
        reasoning = None
    if reasoning is not None:
        msgs.append({"role": "assistant", "content": f"REASONING:\n{reasoning}"})
    return msgs
