"""`bedside cases translate`: a machine-translated copy of a case, linked to its original.

The case's text (every field a person reads: title, objective, the patient's words, item
names and values, the ground truth) goes to a model in one call as a JSON object of
numbered strings, each distinct string once, so a name translates the same way wherever it
stands; the reply must hold the same keys. What is not text stays as it is: ids, codes,
numbers, flags, the kinds of history. Names keep their originals beside the translations
(accepted diagnosis names, synonyms of symptoms and tests), because clinicians mix
languages; the expected order of inquiry follows the translated names. The copy gets a new
id, `translated_from`, `machine_translated` and `needs_review` (`cases list` and the app mark
it) and a note saying how it was made. The paper's cases were machine-translated and then
corrected by native speakers; the flag stays until someone has done that.
"""

from __future__ import annotations

import json
import re
from collections.abc import Awaitable, Callable
from typing import Any

from pydantic import ValidationError

from core.case import HISTORY_KINDS, Case
from core.errors import InputError
from core.prompts import get, language_names

Messages = list[dict[str, str]]
Complete = Callable[[Messages], Awaitable[Any]]
# Fields that are not text to translate (ids, codes, kinds, flags, paths).
_KEEP = frozenset({"id", "language", "specialty", "source", "licence", "icd10", "kind",
                   "category", "tags", "url", "path", "correct_option", "translated_from",
                   "options"})
# Lists of names whose originals stay beside the translations.
_NAME_LISTS = frozenset({"synonyms"})


def _strings(data: Any, key: str = "") -> list[str]:
    """Every translatable string in a case's data, depth first."""
    if key in _KEEP:
        return []
    if isinstance(data, str):
        return [data] if data.strip() else []
    if isinstance(data, list):
        return [s for x in data for s in _strings(x)]
    if isinstance(data, dict):
        return [s for k, v in data.items() for s in _strings(v, k)]
    return []


def _rebuild(data: Any, done: dict[str, str], key: str = "") -> Any:
    """The case's data with each string translated (originals kept in name lists)."""
    if key in _KEEP:
        return data
    if isinstance(data, str):
        return done.get(data, data)
    if isinstance(data, list):
        out = [_rebuild(x, done) for x in data]
        if key in _NAME_LISTS:
            out = list(dict.fromkeys([*out, *data]))
        return out
    if isinstance(data, dict):
        return {k: _rebuild(v, done, k) for k, v in data.items()}
    return data


def request(case: Case, target: str) -> tuple[Messages, list[str]]:
    """The messages for the model and the distinct strings, numbered from 1."""
    data = case.model_dump(mode="json", exclude_defaults=True)
    steps = data.pop("expected_inquiry_order", [])
    names = [s.partition(":")[2] for s in _step_strings(steps)]
    texts = [t for t in dict.fromkeys(_strings(data) + names) if t and t not in HISTORY_KINDS]
    source_name, _ = language_names(case.language)
    target_name, endonym = language_names(target)
    system = get("translator/v1").format(source_name=source_name, target_name=target_name,
                                         target_endonym=endonym)
    payload = json.dumps({str(i): t for i, t in enumerate(texts, 1)}, ensure_ascii=False)
    return [{"role": "system", "content": system}, {"role": "user", "content": payload}], texts


def _step_strings(steps: list[Any]) -> list[str]:
    out = []
    for step in steps:
        if isinstance(step, dict):
            out.append(f"{step.get('category')}:{step.get('name') or ''}")
        else:
            out.append(str(step))
    return out


def parse_reply(text: str, texts: list[str]) -> dict[str, str]:
    """original → translation from the model's JSON reply; InputError when it is not one
    JSON object holding a text for every key."""
    found = re.search(r"\{.*\}", text, re.DOTALL)
    try:
        reply = json.loads(found.group(0) if found else text)
    except json.JSONDecodeError:
        raise InputError("the model's reply is not a JSON object", field="--model") from None
    if not isinstance(reply, dict):
        raise InputError("the model's reply is not a JSON object", field="--model")
    missing = [k for k in map(str, range(1, len(texts) + 1))
               if not isinstance(reply.get(k), str) or not reply[k].strip()]
    if missing:
        shown = ", ".join(missing[:5]) + (" …" if len(missing) > 5 else "")
        raise InputError(f"the model left {len(missing)} of {len(texts)} texts untranslated "
                         f"(keys {shown})", field="--model")
    return {t: reply[str(i)].strip() for i, t in enumerate(texts, 1)}


def translated_case(case: Case, target: str, done: dict[str, str], new_id: str,
                    model: str) -> Case:
    """The copy of `case` in `target` from the translations `done`."""
    data = case.model_dump(mode="json", exclude_defaults=True)
    steps = data.pop("expected_inquiry_order", [])
    out = _rebuild(data, done)
    out["expected_inquiry_order"] = [
        f"{cat}:{name if name in HISTORY_KINDS else done.get(name, name)}" if name else cat
        for cat, _, name in (s.partition(":") for s in _step_strings(steps))]
    truth = out["truth"]
    truth["synonyms"] = list(dict.fromkeys([*truth.get("synonyms", []),
                                            case.truth.diagnosis]))
    out.update(id=new_id, language=target, translated_from=case.id, machine_translated=True,
               needs_review=True, source=case.source,
               notes=f"Machine-translated from {case.id} ({case.language} → {target}) by "
                     f"{model}; not yet reviewed by a native-speaking clinician.")
    try:
        return Case.model_validate(out)
    except ValidationError as err:
        first = err.errors()[0]
        raise InputError(f"the translation does not make a valid case ({first['msg']})",
                         field=".".join(map(str, first["loc"]))) from None


async def translate(case: Case, target: str, complete: Complete, model: str,
                    new_id: str | None = None) -> Case:
    """Translate a case with one model call (`complete(messages)` returns a Reply)."""
    if target.split("-")[0] == case.language.split("-")[0]:
        raise InputError(f"the case is already in '{case.language}'", field="--to")
    messages, texts = request(case, target)
    reply = await complete(messages)
    done = parse_reply(reply.text, texts)
    return translated_case(case, target, done, new_id or f"{case.id}-{target}", model)
