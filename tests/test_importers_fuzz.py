"""Fuzzing every importer: seeded mutations of the real samples either import (and round
trip) or fail with a one-line InputError naming the file — never another exception.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from core.errors import InputError
from core.importers import import_file
from tests.importer_support import AIH_EN, AIH_ZH, DIALOG, MEDQA, NEJM, RJUA, peer, roundtrip


def _mutations(value: Any, rng: Any) -> Any:
    """One random nasty change somewhere in a JSON value: a key dropped or respelled, a
    value replaced by a wrong type, nested in a dict, wrapped in a list."""
    if isinstance(value, dict) and value:
        value = dict(value)
        key = rng.choice(list(value))
        op = rng.randrange(6)
        if op == 0:
            del value[key]
        elif op == 1:
            value[key.upper().replace("_", " ")] = value.pop(key)
        elif op == 2:
            value[key] = [value[key], value[key]]
        elif op == 3:
            value[key] = {"nested": value[key], "n": 3}
        elif op == 4:
            value[key] = rng.choice([None, 1, 2.5, True, "", [], {}, "，，", "；", "1.\n2.",
                                     "\u2028", "<结束>"])
        else:
            value[key] = _mutations(value[key], rng)
        return value
    if isinstance(value, list) and value:
        value = list(value)
        i = rng.randrange(len(value))
        value[i] = rng.choice([None, 7, {"x": value[i]}, _mutations(value[i], rng)])
        return value
    return rng.choice(["", None, 0, [value], {"t": value}, "<对检查员讲>x"])


@pytest.mark.parametrize(("fmt", "sample"), [
    ("agentclinic", MEDQA), ("agentclinic-nejm", NEJM), ("aihospital", AIH_ZH),
    ("aihospital", AIH_EN), ("aihospital-dialog", DIALOG)])
def test_fuzzed_samples_import_or_fail_in_one_line(tmp_path: Path, fmt: str,
                                                   sample: str) -> None:
    """200 seeded mutations of each sample: each imports, or fails with a one-line
    InputError naming the file and a line — never another exception."""
    import random

    text = peer(sample).read_text(encoding="utf-8")
    records = json.loads(text) if text.lstrip().startswith("[") else \
        [json.loads(ln) for ln in text.splitlines() if ln.strip()]
    rng = random.Random(f"{fmt}:{sample}")
    outcomes = set()
    for n in range(200):
        mutated = [_mutations(r, rng) if rng.random() < 0.6 else r for r in records]
        path = tmp_path / f"{n}.json"
        if sample.endswith(".json"):
            path.write_text(json.dumps(mutated, ensure_ascii=False, indent=1), encoding="utf-8")
        else:
            path.write_text("\n".join(json.dumps(r, ensure_ascii=False) for r in mutated),
                            encoding="utf-8")
        try:
            result = import_file(fmt, path)
        except InputError as err:
            message = str(err)
            assert "\n" not in message and message.startswith(f"{path}:"), message
            outcomes.add("error")
            continue
        roundtrip(result)
        outcomes.add("ok")
    assert outcomes == {"ok", "error"}  # the mutations exercise both paths


def test_fuzzed_rjua_csv_imports_or_fails_in_one_line(tmp_path: Path) -> None:
    """150 seeded damages of the RJUA sheet (rows dropped, cut short, lengthened, emptied,
    cells blanked or replaced, header shuffled): import, or a one-line InputError."""
    import csv
    import io
    import random

    rows = list(csv.reader(io.StringIO(peer(RJUA).read_text(encoding="utf-8"))))
    outcomes = set()
    for seed in range(150):
        rng = random.Random(seed)
        damaged = [list(r) for r in rows]
        for _ in range(rng.randrange(1, 5)):
            i = rng.randrange(1, len(damaged))
            op = rng.randrange(5)
            if op == 0:
                del damaged[i]
            elif op == 1:
                damaged[i] = damaged[i][:rng.randrange(len(damaged[i]) + 1)] + ["extra"] * op
            elif op == 2 and damaged[i]:
                damaged[i][rng.randrange(len(damaged[i]))] = rng.choice(
                    ["", "，，", "无", "诊断", "正确顺序", "预计轮次", "手术史", ">>=", "\u2028"])
            elif op == 3:
                damaged[0] = rng.sample(damaged[0], len(damaged[0]))
            else:
                damaged[i] = []
        out = io.StringIO()
        csv.writer(out).writerows(damaged)
        path = tmp_path / "sp.csv"
        path.write_text(out.getvalue(), encoding="utf-8")
        try:
            roundtrip(import_file("rjua", path))
            outcomes.add("ok")
        except InputError as err:
            assert "\n" not in str(err) and str(err).startswith(f"{path}"), str(err)
            outcomes.add("error")
    assert outcomes == {"ok", "error"}
