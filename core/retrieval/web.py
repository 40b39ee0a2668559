"""Web search as an optional provider of the doctor's searches: a SearxNG-style JSON endpoint
the user names in `$BEDSIDE_WEB_SEARCH` (e.g. `http://127.0.0.1:8888/search`).

A search is `GET <url>?q=<query>&format=json`; the reply's `results` (each with `url`,
`title` and `content`) become passages. The URL is recorded with the configuration, so it
must hold no credential: a user name or password in it, or a query parameter named like a
key or token, is refused. The call runs in a thread (the standard library's HTTP client),
with a timeout; what comes back is untrusted text, cleaned like corpus text.
"""

from __future__ import annotations

import asyncio
import json
import urllib.error
import urllib.parse
import urllib.request

from core.errors import BedsideError, InputError
from core.records.tools import Passage
from core.retrieval.documents import clean

WEB_SEARCH_ENV = "BEDSIDE_WEB_SEARCH"  # where the user names the endpoint
MAX_REPLY_BYTES = 2_000_000
SNIPPET_CHARS = 800
_SECRET_PARAMS = ("key", "token", "secret", "password", "passwd", "auth", "credential",
                  "signature")


class SearchError(BedsideError):
    """A web search failed (the consultation goes on; the failure is recorded)."""

    title = "Web search failed"


def check_url(url: str, *, field: str = WEB_SEARCH_ENV) -> str:
    """The endpoint URL, checked: http(s), a host, no credential in it."""
    text = url.strip()
    parts = urllib.parse.urlsplit(text)
    if parts.scheme not in ("http", "https") or not parts.hostname:
        raise InputError(f"must be an http(s) URL of a search endpoint (got {text!r})",
                         field=field)
    if parts.username or parts.password:
        raise InputError("must not hold a user name or password (it is stored with the run)",
                         field=field)
    for name, _ in urllib.parse.parse_qsl(parts.query, keep_blank_values=True):
        if any(word in name.lower() for word in _SECRET_PARAMS):
            raise InputError(f"must not hold a credential (the parameter '{name}'; the URL "
                             "is stored with the run)", field=field)
    return text


def _query_url(base: str, query: str) -> str:
    parts = urllib.parse.urlsplit(base)
    params = [*urllib.parse.parse_qsl(parts.query, keep_blank_values=True),
              ("q", query), ("format", "json")]
    return urllib.parse.urlunsplit(parts._replace(query=urllib.parse.urlencode(params)))


def _passages(data: object, limit: int) -> list[Passage]:
    results = data.get("results") if isinstance(data, dict) else None
    if not isinstance(results, list):
        raise SearchError("the reply has no 'results' list")
    out: list[Passage] = []
    for item in results:
        if not isinstance(item, dict):
            continue
        text = clean(str(item.get("content") or ""))[:SNIPPET_CHARS]
        url = clean(str(item.get("url") or ""))
        if not text or not url:
            continue
        out.append(Passage(text=text, title=clean(str(item.get("title") or url))[:200],
                           source=url, provider="web", position=len(out),
                           score=item.get("score") if isinstance(item.get("score"),
                                                                 int | float) else None))
        if len(out) >= limit:
            break
    return out


class WebSearch:
    """The web search endpoint."""

    def __init__(self, url: str, *, timeout: float = 10.0) -> None:
        self.url, self.timeout = check_url(url), timeout

    def _fetch(self, query: str, limit: int) -> list[Passage]:
        request = urllib.request.Request(_query_url(self.url, query), headers={
            "Accept": "application/json", "User-Agent": "bedside"})
        try:
            with urllib.request.urlopen(request, timeout=self.timeout) as reply:  # noqa: S310
                body = reply.read(MAX_REPLY_BYTES + 1)
        except urllib.error.HTTPError as err:
            raise SearchError(f"the endpoint answered HTTP {err.code}") from None
        except (urllib.error.URLError, OSError) as err:
            reason = getattr(err, "reason", None) or err
            raise SearchError(f"cannot reach the endpoint ({reason})") from None
        if len(body) > MAX_REPLY_BYTES:
            raise SearchError("the reply is larger than 2 MB")
        try:
            data = json.loads(body.decode("utf-8"))
        except (UnicodeDecodeError, ValueError):
            raise SearchError("the reply is not JSON") from None
        return _passages(data, limit)

    async def search(self, query: str, limit: int) -> list[Passage]:
        """The first `limit` results as passages; SearchError when the search failed."""
        return await asyncio.to_thread(self._fetch, query, limit)
