"""The in-app batch form's validation (pure function; the screen is driven elsewhere)."""

from __future__ import annotations

from tui.screens.engine_bridge import model_config
from tui.screens.forms_batch import BatchRequest, parse_batch


def test_api_base_is_passed_to_model_doctors() -> None:
    req = parse_batch("cardiology", "openai/x, offline", "4", "", " http://127.0.0.1:9/v1 ")
    assert isinstance(req, BatchRequest)
    assert req.api_base == "http://127.0.0.1:9/v1" and req.models == ["openai/x", "offline"]
    cfg = model_config(None, "openai/x", req.api_base)
    assert cfg.doctor.kind == "llm" and cfg.doctor.api_base == "http://127.0.0.1:9/v1"
    assert model_config(None, "offline", req.api_base).doctor.kind == "scripted"


def test_form_problems_are_one_line() -> None:
    assert "http" in parse_batch("", "openai/x", "2", "", "localhost:8000")
    assert "Concurrency" in parse_batch("", "openai/x", "0", "")
    assert "doctor" in parse_batch("", " , ", "2", "")
