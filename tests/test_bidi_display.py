"""Persian on screen (issue 12): terminals do not reorder right-to-left text, so lines that
hold it are put in visual order for display only (`tui.app.widgets.bidi`), after wrapping;
what is stored is the text as typed. Played through the app with the real engine on a
Persian case."""

from __future__ import annotations

from pathlib import Path

import pytest
from bidi import get_display
from rich.cells import cell_len
from rich.console import Console
from textual.widgets import Input

from tests.app_support import wait_until
from tests.test_app_play import _start, _type
from tui.app.application import BedsideApp
from tui.app.screens.home import HomeScreen
from tui.app.widgets.bidi import BidiText, display_line, literal_block
from tui.app.widgets.transcript_view import TurnBlock, render_turn

FA = "حدود سه هفته پیش با بدن‌درد و لرز شروع شد؛ بیشتر عصرها تب می‌کنم و CBC هم دادم."


def _lines(renderable: object, width: int) -> list[str]:
    console = Console(width=width, record=True, color_system=None)
    console.print(renderable)
    return console.export_text().splitlines()


def test_rtl_lines_are_wrapped_first_then_reordered_and_right_aligned() -> None:
    lines = _lines(BidiText(FA), 30)
    assert len(lines) > 1 and all(cell_len(line) <= 30 for line in lines)
    # Each shown line is one wrapped logical line in visual order: reordering it back gives
    # the logical words, and together they give the whole text in its logical order.
    logical = [get_display(line.strip()) for line in lines]
    assert " ".join(logical).split() == FA.split()
    # The first word on the right, where reading starts, its letters laid out right to left.
    assert lines[0].endswith("حدود"[::-1])
    assert all(cell_len(line) == 30 for line in lines)  # right-aligned: padded on the left


def test_left_to_right_text_is_left_as_it_is() -> None:
    assert isinstance(literal_block("Chest pain [bold]x[/]"), type(literal_block("a")))
    assert display_line("가슴이 아파요") == "가슴이 아파요"
    assert _lines(literal_block("Chest pain [bold]x[/]"), 40) == ["Chest pain [bold]x[/]"]


def test_brackets_in_right_to_left_runs_are_mirrored() -> None:
    """python-bidi 0.6 reorders without mirroring: "(لنفوسیت ۵۲٪)" showed as ")…(" (seen
    under tmux in a Persian CBC row and in the reveal's diagnosis)."""
    shown = display_line("۳۸۰۰ در میکرولیتر (لنفوسیت ۵۲٪)")
    assert shown.startswith("(") and ")" in shown and shown.index("(") < shown.index(")")
    assert display_line("Diagnosis: بروسلوز (تب مالت)") == "Diagnosis: (تلام بت) زولسورب"
    # A bracket pair inside a left-to-right stretch keeps its glyphs.
    assert display_line("ab (لن ۵)") == "ab (۵ نل)"
    # Without brackets, the same order as python-bidi's.
    assert display_line(FA) == get_display(FA)


@pytest.fixture(autouse=True)
def _home(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("BEDSIDE_HOME", str(tmp_path / "home"))
    monkeypatch.delenv("BEDSIDE_DOCTOR", raising=False)


async def test_a_persian_case_is_shown_in_visual_order_and_stored_as_typed(
        tmp_path: Path) -> None:
    app = BedsideApp(tmp_path / "b.db")
    async with app.run_test(size=(100, 30)) as pilot:
        await wait_until(pilot, lambda: isinstance(app.screen, HomeScreen) and app.screen.cases)
        app.screen.query_one("#filter-text", Input).value = "id-004"
        await wait_until(pilot, lambda: [c.id for c in app.screen.shown_cases] == ["id-004"])
        play = await _start(pilot, app, "p")
        assert play.case.id == "id-004"
        await _type(pilot, "ask", "از کی تب دارید؟")
        await wait_until(pilot, lambda: play.turns_used == 1 and play.waiting)
        stored = [r["content"] for r in app.db["turns"].rows_where(
            "consultation_id = ?", [play.consultation_id], order_by="idx")]
        assert stored[0] == "از کی تب دارید؟" and stored[1].startswith("حدود سه هفته پیش")
        block = list(play.query(TurnBlock))[-1]
        shown = _lines(render_turn(block.turn), 60)
        assert any("ﺶﯿﭘ" in line or "شیپ" in line for line in shown)  # 'پیش' reversed on screen
        assert not any(stored[1][:12] in line for line in shown)  # never the logical order


def test_a_left_to_right_line_with_a_persian_word_stays_left_aligned() -> None:
    lines = _lines(BidiText("REQUEST TEST: رایت, CBC"), 40)
    assert [line.rstrip() for line in lines] == ["REQUEST TEST: " + "رایت"[::-1] + ", CBC"]


HI = ("सितंबर के महीने में दिल्ली के एक 21 वर्षीय इंजीनियरिंग छात्र को चार दिन के तेज़ बुखार और "
      "बदन दर्द के साथ मेडिसिन ओपीडी में लाया गया है। इतिहास लें, जांच करें")


def test_hindi_lines_fit_the_terminal_counting_spacing_vowel_signs() -> None:
    from rich.text import Text

    from tui.app.widgets.bidi import terminal_width

    console = Console(width=40)
    # Rich's own wrapping counts "ी", "ा" as no column: some line runs past a terminal's edge.
    assert max(terminal_width(line.plain) for line in Text(HI).wrap(console, 40)) > 40
    lines = [line.rstrip() for line in _lines(literal_block(HI), 40)]
    assert all(terminal_width(line) <= 40 for line in lines)
    assert " ".join(lines).split() == HI.split()  # nothing lost


def test_hindi_analytes_keep_their_indent_under_the_panel() -> None:
    from tui.app.widgets.bidi import wrap_terminal

    assert wrap_terminal("  तापमान", 30) == ["  तापमान"]


def test_the_results_screen_shows_a_persian_diagnosis_in_display_order() -> None:
    """Under tmux the results screen's consultations listed 'بروسل…' in stored order, which a
    terminal shows backwards."""
    from tui.app.screens.results import _cells
    from tui.text.results_table import CONSULTATION_COLUMNS

    shown = _cells({"diagnosis": "بروسلوز (تب مالت)", "case_id": "id-004"},
                   CONSULTATION_COLUMNS)
    plain = [c.plain for c in shown]
    assert "(تلام بت) زولسورب" in plain and "id-004" in plain
