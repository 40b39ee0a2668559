"""What a diagnosis line names: its alternatives ('items') and, inside each, its entities.

- The line is cut into pieces at ; , / + | • newlines and numbered lists; a piece that
  states an absence is left out whole ('Coeliac disease; iron deficiency or blood loss
  ruled out' names coeliac disease only; `negation`).
- A piece is cut into alternatives at 'or', 'vs', 'versus', 'o', 'ou', 'oder', '或'; an
  alternative that states an absence is left out. Pieces and alternatives, in order, are
  the line's items.
- An item is cut into entities at connecting words: and, with, due to, secondary to,
  caused by, complicated by … (und, mit, bei; et, avec; y, con, por). A negated entity is
  left out and a negated tail cut ('pneumonia without effusion' → 'pneumonia').
Nothing inside brackets cuts anything ('miscarriage (threatened or incomplete)', '膀胱癌
（高级别，非肌层浸润性）'), and names given as `protect` (the case's own) stay whole even when
they hold a separator ('Hand, foot and mouth disease', 'DVT with PE'). Every entity comes
out in `normal.normalise` form.
"""

from __future__ import annotations

import re
from collections.abc import Iterable

from core.clinical_text.negation import cut_negated_tail, is_negated
from core.clinical_text.normal import expand, finish, fold, only_modifiers

SEP, ALT, OPEN, CLOSE = "zzsepzz", "zzaltzz", "zzopenzz", "zzclosezz"  # marker words
_MARKERS = frozenset({SEP, ALT, OPEN, CLOSE})
_OPENERS, _CLOSERS = "([（【", ")]）】"
_HARD = frozenset(";；,，/+|•\n")
_NUMBERED = re.compile(r"(?:^|\s)\d+[.)]\s")
_CJK_OR = re.compile(r"或者|或|또는|혹은")
ALTERNATIVES = frozenset({"or", "vs", "versus", "o", "ou", "oder", "या", "یا"})
CONNECTING = ("and", "with", "plus", "secondary to", "due to", "caused by", "complicated by",
              "along with", "as well as", "und", "mit", "bei", "infolge", "et", "avec",
              "secondaire a", "due a", "y", "con", "por", "secundario a", "secundaria a",
              "debido a", "और", "के साथ", "के कारण", "همراه با", "ناشی از", "به علت", "및")
_CONNECTING = sorted((tuple(c.split()) for c in CONNECTING), key=len, reverse=True)


def _mark(text: str) -> str:
    """Raw text with brackets and every separator outside them as marker words."""
    out, depth = [], 0
    for ch in _NUMBERED.sub(" ; ", _CJK_OR.sub(f" {ALT} ", text)):
        if ch in _OPENERS:
            depth += 1
            out.append(f" {OPEN} ")
        elif ch in _CLOSERS:
            depth = max(depth - 1, 0)
            out.append(f" {CLOSE} ")
        else:
            out.append(f" {SEP} " if ch in _HARD and depth == 0 else ch)
    return "".join(out)


def _protect(light: str, names: Iterable[str]) -> tuple[str, dict[str, str]]:
    # Multi-word names are swapped for placeholder words while splitting, then restored.
    held: dict[str, str] = {}
    wanted = sorted({n for n in (expand(fold(x)) for x in names) if " " in n},
                    key=len, reverse=True)
    gap = rf"\s+(?:(?:{'|'.join(sorted(_MARKERS))})\s+)*"
    for i, name in enumerate(wanted):
        # A name can match only if each of its words is in the text: most names are not,
        # and skipping them saves compiling a pattern per name (too many for re's cache).
        if not all(w in light for w in name.split()):
            continue
        pattern = r"\b" + gap.join(map(re.escape, name.split())) + r"\b"
        key = f"zzprotect{i}zz"
        replaced = re.sub(pattern, f" {key} ", light)
        if replaced != light:
            held[key], light = name, replaced
    return light, held


def _cut(words: list[str], at: frozenset[str] | None) -> list[list[str]]:
    """Words cut where `at` holds the word (for None: at a connecting phrase), never
    inside brackets."""
    out: list[list[str]] = [[]]
    depth, i = 0, 0
    while i < len(words):
        w = words[i]
        depth += (w == OPEN) - (w == CLOSE and depth > 0)
        size = _connector(words, i) if at is None and depth == 0 else int(
            at is not None and depth == 0 and w in at)
        if size:
            out.append([])
            i += size
            continue
        out[-1].append(w)
        i += 1
    return [part for part in out if part]


def _connector(words: list[str], i: int) -> int:
    return next((len(c) for c in _CONNECTING if tuple(words[i:i + len(c)]) == c), 0)


def _text(words: list[str]) -> str:
    return " ".join(w for w in words if w not in _MARKERS)


def _entities(item: list[str], held: dict[str, str]) -> list[str]:
    out: list[str] = []
    for part in _cut(item, None):
        text = _text(part)
        if not text or is_negated(text):
            continue
        norm = finish(" ".join(held.get(w, w) for w in cut_negated_tail(text).split()))
        if norm and not only_modifiers(norm) and norm not in out:
            out.append(norm)
    return out


def split_items(text: str | None, protect: Iterable[str] = ()) -> list[list[str]]:
    """The alternatives a diagnosis line names, in order, each as its entities; those that
    state an absence, and those left with no entity, are not returned."""
    light, held = _protect(expand(fold(_mark(text or ""))), protect)
    out = []
    for piece in _cut(light.split(), frozenset({SEP})):
        if is_negated(_text(piece)):
            continue
        for item in _cut(piece, ALTERNATIVES | {ALT}):
            if not is_negated(_text(item)) and (entities := _entities(item, held)):
                out.append(entities)
    return out


def split_entities(text: str | None, protect: Iterable[str] = ()) -> list[str]:
    """Every entity a diagnosis line names, once each, in order (negated ones left out)."""
    return list(dict.fromkeys(e for item in split_items(text, protect) for e in item))


def tables() -> dict[str, object]:
    """What decides splitting, for the reproducibility hash."""
    return {"hard": sorted(_HARD), "numbered": _NUMBERED.pattern, "cjk_or": _CJK_OR.pattern,
            "alternatives": sorted(ALTERNATIVES), "connecting": CONNECTING}
