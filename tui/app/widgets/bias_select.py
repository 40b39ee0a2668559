"""A choice of patient bias for the setup forms (play as doctor, play the patient): `none`
or one of AgentClinic's patient biases (`core.biases`), each with what it does."""

from __future__ import annotations

from textual.widgets import Select

from core.biases import NONE, PATIENT_BIASES


def patient_bias_select(widget_id: str) -> Select[str]:
    """A Select of `none` and every patient bias ('name: what it does'), `none` chosen."""
    options = [("none: no bias", NONE)] + [(f"{b.name}: {b.summary}", b.name)
                                           for b in PATIENT_BIASES.values()]
    return Select(options, value=NONE, allow_blank=False, id=widget_id)


def chosen_bias(select: Select[str]) -> str | None:
    """The bias chosen (None for none)."""
    value = select.value
    return None if not isinstance(value, str) or value == NONE else value
