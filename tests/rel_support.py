"""Shared by the reliability tests (issue 18) that run `bedside run` processes against the
local model server: a server whose doctor diagnoses at once (one model call per
consultation, the cheapest consultation litellm can play), the run options, and a bounded
wait for a state of the database."""

from __future__ import annotations

import time
from collections.abc import Callable

from tests.fake_openai_server import FakeOpenAIServer
from tests.test_resume_kill import WAIT

DOCTOR = "DIAGNOSIS READY: Inferior ST-elevation myocardial infarction"


def one_call_server() -> FakeOpenAIServer:
    """The server (a context manager): 20 ms a reply, the doctor diagnoses at once."""
    return FakeOpenAIServer(latency=0.02, replies={"doctor": DOCTOR})


def model_run_args(server: FakeOpenAIServer, cases: int, *extra: str) -> list[str]:
    """`bedside run` options: `cases` cases, concurrency 4, the model doctor on `server`
    (retrieval patient and examiner), JSON results."""
    return ["--limit", str(cases), "--concurrency", "4", "--doctor", "openai/fake-doctor",
            "--api-base", server.base_url, "--timeout", "120", "--json", *extra]


def until(check: Callable[[], object], what: str, limit: float = WAIT,
          must: bool = True) -> None:
    """Poll `check` until true; fail after `limit` seconds (a hang guard) when `must`."""
    deadline = time.monotonic() + limit
    while time.monotonic() < deadline:
        if check():
            return
        time.sleep(0.05)
    if must:
        raise AssertionError(f"never reached: {what}")
