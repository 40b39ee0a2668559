"""Images through the real engine, litellm and the local OpenAI-compatible server: a model
doctor gets them as image content parts up front, or only after REQUEST IMAGES (one turn);
a model litellm knows to be blind is refused before any call; the stored request keeps the
image's hash, not its base64."""

from __future__ import annotations

import asyncio
import base64
import json
from collections.abc import Iterator
from typing import Any

import pytest

from core.caseio import bundled_cases_dir, load_case_file
from core.config import AgentSpec, ConsultationConfig
from core.engine import run_consultation, run_one_step_consultation
from core.events import ConsultationFailed, ListSink
from core.llm import LLMClient
from core.transcript import EndReason, Role
from tests.fake_openai_server import TEST_KEY, FakeOpenAIServer, image_urls, looking_doctor

KEY = TEST_KEY


@pytest.fixture(scope="module")
def server() -> Iterator[FakeOpenAIServer]:
    with FakeOpenAIServer(replies={"doctor": looking_doctor}) as srv:
        yield srv


@pytest.fixture
def fresh(server: FakeOpenAIServer) -> FakeOpenAIServer:
    server.requests.clear()
    return server


def case(name: str = "card-101"):
    path = next(bundled_cases_dir().rglob(f"{name}-*.yaml"))
    return load_case_file(path)


def config(server: FakeOpenAIServer, images: str = "upfront",
           model: str = "openai/fake-doctor") -> ConsultationConfig:
    doctor = AgentSpec(kind="llm", model=model, api_base=server.base_url, timeout=10,
                       retries=0)
    return ConsultationConfig(doctor=doctor, images=images)  # type: ignore[arg-type]


def consult(c: Any, cfg: ConsultationConfig) -> tuple[Any, ListSink]:
    sink = ListSink()
    t = asyncio.run(run_consultation(c, cfg, sink, consultation_id="c-img",
                                     llm=LLMClient(api_key=KEY)))
    return t, sink


def failures(sink: ListSink) -> list[ConsultationFailed]:
    return [e for e in sink.events if isinstance(e, ConsultationFailed)]


def doctor_requests(server: FakeOpenAIServer) -> list[tuple[str, int]]:
    return [r for r in server.images_received() if r[0] == "doctor"]


def test_upfront_the_first_doctor_call_carries_the_image(fresh: FakeOpenAIServer) -> None:
    c = case()
    t, _ = consult(c, config(fresh, "upfront"))
    assert t.end_reason == EndReason.DIAGNOSIS and t.diagnosis.endswith("(1 seen)")
    assert doctor_requests(fresh) == [("doctor", 1)]
    first_user = fresh.requests[0]["messages"][1]
    url = image_urls(first_user)[0]
    png = (c.folder / str(c.images[0].path)).read_bytes()
    assert url == "data:image/png;base64," + base64.b64encode(png).decode()
    # One doctor turn: the diagnosis; no images turn.
    assert [x.kind for x in t.turns] == ["diagnosis"]
    assert t.meta["config"]["case_images"] == 1


def test_on_request_the_image_comes_only_after_request_images(fresh: FakeOpenAIServer) -> None:
    t, sink = consult(case(), config(fresh, "on-request"))
    # The first call has no image (the doctor asks), the second has it (the doctor decides).
    assert doctor_requests(fresh) == [("doctor", 0), ("doctor", 1)]
    system = fresh.requests[0]["messages"][0]["content"]
    assert "REQUEST IMAGES" in system and "1 image(s)" in system
    kinds = [(x.role, x.kind, x.doctor_turn) for x in t.turns]
    assert kinds == [(Role.DOCTOR, "image_request", 1), (Role.SYSTEM, "images", 1),
                     (Role.DOCTOR, "diagnosis", 2)]
    assert failures(sink) == []
    ref = t.turns[1].meta["images"][0]
    assert ref["name"] == "card-101-rhythm-strip.png" and len(ref["sha256"]) == 64
    # Asking cost a turn: two doctor turns in all.
    assert max(x.doctor_turn or 0 for x in t.turns) == 2


def test_the_stored_request_keeps_the_hash_not_the_base64(fresh: FakeOpenAIServer) -> None:
    t, _ = consult(case(), config(fresh, "on-request"))
    stored = json.dumps(t.turns[2].raw_request)
    assert "base64" not in stored and len(stored) < 5000
    part = t.turns[2].raw_request["messages"][-1]["content"][-1]
    assert part["image_url"]["url"] == f"sha256:{t.turns[1].meta['images'][0]['sha256']}"
    assert part["image_url"]["media_type"] == "image/png" and part["image_url"]["bytes"] > 1000
    # ... while what was sent held the image itself.
    assert image_urls(fresh.requests[-1])[0].startswith("data:image/png;base64,")


def test_a_model_litellm_knows_to_be_blind_is_refused_before_any_call(
        fresh: FakeOpenAIServer) -> None:
    t, sink = consult(case(), config(fresh, model="openai/gpt-3.5-turbo"))
    failed = failures(sink)[0]
    assert t.end_reason == EndReason.ERROR
    assert failed.reason == ("openai/gpt-3.5-turbo cannot see images (litellm's model map "
                             "says so), and case card-101 has 1: play it with a model that can")
    assert fresh.requests == []


def test_a_model_litellm_does_not_know_gets_the_images_with_a_warning(
        fresh: FakeOpenAIServer) -> None:
    t, _ = consult(case(), config(fresh))
    assert t.meta["warnings"] == ["litellm does not know whether openai/fake-doctor can see "
                                  "images; it is sent this image anyway"]
    t, _ = consult(case().model_copy(update={"images": []}), config(fresh))
    assert "warnings" not in t.meta and t.meta["config"]["case_images"] == 0


def test_an_uncached_url_image_fails_a_model_consultation_saying_so(
        fresh: FakeOpenAIServer) -> None:
    c = case()
    url_only = c.model_copy(update={"images": [c.images[0].model_copy(
        update={"path": None, "url": "https://images.example.org/strip.png"})]})
    t, sink = consult(url_only, config(fresh))
    reason = failures(sink)[0].reason
    assert reason == ("image 1 of case card-101 (https://images.example.org/strip.png): not "
                      "in the local image cache (run `bedside cases fetch-images`)")
    assert fresh.requests == []


def test_the_one_step_upper_bound_gets_the_images_with_the_record(
        fresh: FakeOpenAIServer) -> None:
    sink = ListSink()
    t = asyncio.run(run_one_step_consultation(case("pulm-101"), config(fresh, "on-request"),
                                              sink, consultation_id="c-1s",
                                              llm=LLMClient(api_key=KEY)))
    assert len(fresh.requests) == 1 and len(image_urls(fresh.requests[0])) == 1
    assert "base64" not in json.dumps(t.turns[0].raw_request)


def test_what_litellm_knows_about_seeing_images() -> None:
    from core.llm import load_litellm, vision_support

    lib = load_litellm()
    assert vision_support(lib, "openai/gpt-4o-mini") is True  # listed with vision
    assert vision_support(lib, "openai/gpt-3.5-turbo") is False  # capabilities, no vision
    # A bare entry (price only, no capability listed) is as unknown as a missing one.
    assert vision_support(lib, "together_ai/arize-ai/qwen-2-1.5b-instruct") is None
    assert vision_support(lib, "openai/fake-doctor") is None  # not in the map
