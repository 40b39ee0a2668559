"""Images without a model: REQUEST IMAGES in the protocol, the `images` factor (parsed,
applied, read back, grouped), the doctor's view under each mode, the stored request's
redaction, the scripted doctor asking offline (one turn), and the bundled drawings."""

from __future__ import annotations

import asyncio
import base64
import hashlib

import pytest

from core.caseio import bundled_cases_dir, load_case_file
from core.config import ConsultationConfig
from core.engine import run_consultation
from core.errors import InputError
from core.events import ListSink
from core.factors import grid, parse_values, read_value
from core.images import redact_images
from core.protocol import parse_doctor_message
from core.transcript import Role
from core.views import doctor_view
from cases import draw_images


def card():
    return load_case_file(next(bundled_cases_dir().rglob("card-101-*.yaml")))


@pytest.mark.parametrize("text, kind", [
    ("REQUEST IMAGES", "image_request"), ("Let me look first. REQUEST IMAGES", "image_request"),
    ("**request images**", "image_request"), ("request image\nthanks", "image_request"),
    ("Could you request images from the other hospital?", "question"),
    ("REQUEST IMAGESX", "question"),
    ("REQUEST IMAGES\nREQUEST TEST: ECG", "image_request"),
    ("REQUEST TEST: ECG\nREQUEST IMAGES", "test_request"),
    ("REQUEST IMAGES\nDIAGNOSIS READY: Atrial flutter", "diagnosis"),
])
def test_request_images_is_an_action_of_its_own(text: str, kind: str) -> None:
    assert parse_doctor_message(text).kind == kind


def test_a_test_request_followed_by_request_images_keeps_only_its_tests() -> None:
    assert parse_doctor_message("REQUEST TEST: ECG, TSH\nREQUEST IMAGES").tests == ["ECG", "TSH"]


def test_the_images_factor_is_parsed_applied_and_read_back() -> None:
    values = parse_values({"images": ["upfront,on-request"]}, {})
    configs = grid(values, ConsultationConfig())
    assert [c.images for c in configs] == ["upfront", "on-request"]
    # The default keeps the key runs have always had; on-request is a new configuration.
    assert configs[0].config_key() == ConsultationConfig().config_key()
    assert "images" not in configs[0].describe() and configs[1].describe()["images"] == \
        "on-request"
    with pytest.raises(InputError, match=r"^field '--images': must be one of upfront, "
                       r"on-request \(got 'sideways'\)$"):
        parse_values({"images": ["sideways"]}, {})
    described = configs[1].describe()
    assert read_value("images", {**described, "case_images": 1}) == "on-request"
    assert read_value("images", {**described, "case_images": 0}) == "none"
    assert read_value("images", described) == "none"  # recorded before images were shown
    assert read_value("images", {**configs[0].describe(), "case_images": 2}) == "upfront"


def test_the_doctors_view_under_each_mode() -> None:
    case = card()
    up, asked = doctor_view(case, "upfront"), doctor_view(case, "on-request")
    assert (len(up.images), up.images_on_request) == (1, 0)
    assert (len(asked.images), asked.images_on_request) == (0, 1)
    later = case.model_copy(update={"images": [case.images[0].model_copy(
        update={"given_upfront": False})]})
    assert (len(doctor_view(later).images), doctor_view(later).images_on_request) == (0, 1)


def test_a_stored_request_holds_the_images_hash_not_its_bytes() -> None:
    data = b"\x89PNG\r\n\x1a\n" + bytes(range(256)) * 40
    url = "data:image/png;base64," + base64.b64encode(data).decode()
    messages = [{"role": "system", "content": "You are a physician."},
                {"role": "user", "content": [{"type": "text", "text": "Begin."},
                                             {"type": "image_url", "image_url": {"url": url}}]}]
    stored = redact_images(messages)
    assert stored[0] == messages[0] and stored[1]["content"][0] == messages[1]["content"][0]
    assert stored[1]["content"][1]["image_url"] == {
        "url": f"sha256:{hashlib.sha256(data).hexdigest()}", "media_type": "image/png",
        "bytes": len(data)}
    assert messages[1]["content"][1]["image_url"]["url"] == url  # what is sent is untouched


def test_offline_the_scripted_doctor_asks_and_it_costs_a_turn() -> None:
    def play(images: str):
        sink = ListSink()
        config = ConsultationConfig(images=images)  # type: ignore[arg-type]
        return asyncio.run(run_consultation(card(), config, sink, consultation_id="c-off"))

    upfront, asked = play("upfront"), play("on-request")
    kinds = [(t.role, t.kind) for t in asked.turns[:4]]
    assert kinds == [(Role.DOCTOR, "question"), (Role.PATIENT, "answer"),
                     (Role.DOCTOR, "image_request"), (Role.SYSTEM, "images")]
    assert "image_request" not in [t.kind for t in upfront.turns]
    used = [max(t.doctor_turn or 0 for t in x.turns) for x in (upfront, asked)]
    assert used[1] == used[0] + 1
    assert asked.turns[3].meta["images"][0]["name"] == "card-101-rhythm-strip.png"


def test_the_committed_drawings_match_and_follow_the_case_values() -> None:
    assert draw_images.main(["--check"]) == 0
    case = card()
    ecg = case.tests[0]
    faster = case.model_copy(update={"tests": [ecg.model_copy(update={
        "value": str(ecg.value).replace("at 300/min", "at 280/min")}), *case.tests[1:]]})
    assert draw_images.rhythm_strip(faster).rgb != draw_images.rhythm_strip(case).rgb
    w, h, rgb = draw_images.png_pixels(draw_images.rhythm_strip(case).png())
    assert (w, h) == (1040, 260) and len(rgb) == w * h * 3


def test_results_group_by_the_images_mode_and_none_for_cases_without(tmp_path, capsys) -> None:
    import json

    from tui.cli import main

    db = str(tmp_path / "x.db")
    assert main(["run", "--db", db, "--cases", "card-101,gi-001", "--images",
                 "upfront,on-request", "--json"]) == 0
    capsys.readouterr()
    assert main(["results", "--db", db, "--by", "images", "--json"]) == 0
    rows = json.loads(capsys.readouterr().out)
    got = sorted((r["images"], r["settings"], r["n"]) for r in rows)
    # gi-001 has no image: both of its consultations group as 'none', each under its own
    # settings; card-101 under the mode it was played in.
    assert got == [("none", "", 1), ("none", "images on-request", 1),
                   ("on-request", "images on-request", 1), ("upfront", "", 1)]
    assert main(["results", "--db", db, "--by", "images"]) == 0
    table = capsys.readouterr().out
    assert table.splitlines()[2].split()[0] == "images"


def test_a_resumed_run_takes_the_unchanged_case_from_its_file(tmp_path, capsys) -> None:
    """The store's copy of a case does not know the folder of its image files; resuming
    takes the library's copy of an unchanged case, which does."""
    import json

    from core.caseio import load_bundled_cases
    from core.usecases.runs import resume
    from db.store import open_store
    from tui.cli import main

    db = str(tmp_path / "x.db")
    assert main(["run", "--db", db, "--cases", "card-101", "--json"]) == 0
    run_id = json.loads(capsys.readouterr().out)["run_id"]
    store = open_store(db)
    assert store.get_case("card-101").folder is None
    spec = resume(store, run_id, library=load_bundled_cases())
    assert spec.cases[0].folder == card().folder and spec.changed_cases == []
