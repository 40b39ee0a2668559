"""API keys kept out of everything we store, log or print.

A key can come back to us in text we did not write: a server that echoes the request in an
error ("Incorrect API key provided: local-secret-4f9a2b"), a proxy that quotes the
`Authorization` header, a model that repeats what it was sent. Matching a prefix (`sk-`)
misses keys of local servers and most providers, so `redact` replaces the actual value of
every key in use:

- the value of each environment variable whose name says it holds a secret (`…KEY…`,
  `…TOKEN…`, `…SECRET…`, `…PASSWORD…`: `OPENAI_API_KEY`, `ANTHROPIC_API_KEY`, `HF_TOKEN`,
  and the other providers' variables litellm reads), of the variables named in `names`
  (a model's `api_key_env`, whatever its name) and the `keys` given (a key held in memory);
- whatever follows `Authorization: Bearer`, `api_key=` / `"api_key": "…"` and `x-api-key:`;
- anything shaped like an OpenAI key, masked ones too (`sk-…`, `sk-bad***`).

Values shorter than 8 characters are not treated as keys: replacing every "abc" would
mangle text, and no real key is that short. Every redaction writes `[redacted]`.

`core.llm` redacts each reply, raw response and error before anyone sees it (so the store,
the events, the metrics and the judge never hold a key); the command line's output streams
redact what they print, logs included (`tui.text.safe`).
"""

from __future__ import annotations

import os
import re
from collections.abc import Iterable
from typing import Any

REDACTED = "[redacted]"
MIN_KEY_CHARS = 8
_SECRET_NAME = re.compile(r"KEY|TOKEN|SECRET|PASSWORD|PASSWD|CREDENTIAL", re.IGNORECASE)
# (a word that must occur, lower-cased, for the pattern to be tried; the pattern): the
# word is a cheap test that spares ordinary text the regular expressions.
_PATTERNS = (
    ("authorization",
     re.compile(r"(?i)(authorization[\"']?\s*[:=]\s*[\"']?\s*bearer\s+)[^\s\"',;)]+")),
    ("bearer", re.compile(r"(Bearer\s+)(?=[A-Za-z0-9._~+/=-]*\d)[A-Za-z0-9._~+/=-]{8,}")),
    ("key", re.compile(r"(?i)((?:x-)?api[_-]?key[\"']?\s*[:=]\s*[\"']?)[^\s\"',;)&]+")),
    ("sk-", re.compile(r"()(?<![A-Za-z0-9_-])sk-[A-Za-z0-9_*-]{3,}")),  # not "risk-free"
)


def secret_values(names: Iterable[str] = (), keys: Iterable[str | None] = ()) -> list[str]:
    """The key values in use, longest first (a key inside another is hidden by it)."""
    found = {v for k, v in os.environ.items() if _SECRET_NAME.search(k)}
    found |= {os.environ.get(n) or "" for n in names}
    found |= {k for k in keys if k}
    return sorted((v for v in found if len(v.strip()) >= MIN_KEY_CHARS), key=len, reverse=True)


class Redactor:
    """`redact` with the key values read once (for many strings: a raw response).
    `values` (from `secret_values`) spares reading the environment again."""

    def __init__(self, names: Iterable[str] = (), keys: Iterable[str | None] = (), *,
                 values: Iterable[str] | None = None) -> None:
        found = secret_values(names) if values is None else list(values)
        found += [k for k in keys if k and len(k.strip()) >= MIN_KEY_CHARS]
        self.values = sorted(set(found), key=len, reverse=True)

    def text(self, text: str) -> str:
        """`text` with every key hidden."""
        if not text:
            return text
        for value in self.values:
            if value in text:
                text = text.replace(value, REDACTED)
        low = text.lower()
        for word, pattern in _PATTERNS:
            if word in low:
                text = pattern.sub(_hide, text)
        return text

    def data(self, value: Any) -> Any:
        """A JSON-like value with every string in it (mapping keys too) hidden."""
        if isinstance(value, str):
            return self.text(value)
        if isinstance(value, dict):
            return {self.data(k): self.data(v) for k, v in value.items()}
        if isinstance(value, list | tuple):
            return [self.data(v) for v in value]
        return value


def _hide(match: re.Match[str]) -> str:
    found = match.group(0)
    return found if found.endswith(REDACTED) else match.group(1) + REDACTED


def redact(text: str, names: Iterable[str] = (), keys: Iterable[str | None] = ()) -> str:
    """`text` with every key in use, and anything an Authorization header or `api_key=`
    carries, replaced by `[redacted]`."""
    return Redactor(names, keys).text(text)


def redact_data(value: Any, names: Iterable[str] = (), keys: Iterable[str | None] = ()) -> Any:
    """A JSON-like value with `redact` applied to every string in it."""
    return Redactor(names, keys).data(value)
