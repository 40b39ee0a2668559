"""Draws the bundled cases' images from the cases' own values, deterministically.

    python -m cases.draw_images          # (re)write every image
    python -m cases.draw_images --check  # exit 1 if a committed image differs from its drawing

Each drawing reads its case file and draws what the case's results say: card-101's rhythm
strip from the rates in its Electrocardiogram result, pulm-101's flow-volume loop from its
Spirometry values, id-101's temperature chart from its Temperature record. Change a value
in the case, run this, and the picture follows. Everything here is ours and uses the
standard library only: a small RGB canvas, lines, a 5x7 pixel font, and a PNG writer (zlib
and struct). `--check` compares decoded pixels, not file bytes, so another zlib build that
compresses differently still passes.
"""

from __future__ import annotations

import argparse
import math
import re
import struct
import sys
import zlib
from collections.abc import Callable
from pathlib import Path

from core.case import Case, Item
from core.caseio import bundled_cases_dir, iter_case_files, load_case_file

RGB = tuple[int, int, int]
WHITE, BLACK, GREY = (255, 255, 255), (20, 20, 20), (150, 150, 150)

# -- the PNG file ------------------------------------------------------------------------------


def _chunk(kind: bytes, data: bytes) -> bytes:
    return struct.pack(">I", len(data)) + kind + data + \
        struct.pack(">I", zlib.crc32(kind + data) & 0xFFFFFFFF)


def png_bytes(width: int, height: int, rgb: bytes) -> bytes:
    """An 8-bit RGB PNG of `rgb` (rows top to bottom, no filter)."""
    rows = b"".join(b"\x00" + rgb[y * width * 3:(y + 1) * width * 3] for y in range(height))
    return (b"\x89PNG\r\n\x1a\n"
            + _chunk(b"IHDR", struct.pack(">IIBBBBB", width, height, 8, 2, 0, 0, 0))
            + _chunk(b"IDAT", zlib.compress(rows, 9)) + _chunk(b"IEND", b""))


def png_pixels(data: bytes) -> tuple[int, int, bytes]:
    """(width, height, RGB bytes) of a PNG written by `png_bytes` (ValueError otherwise)."""
    if not data.startswith(b"\x89PNG\r\n\x1a\n"):
        raise ValueError("not a PNG")
    pos, idat, width, height = 8, b"", 0, 0
    while pos < len(data):
        (length,), kind = struct.unpack(">I", data[pos:pos + 4]), data[pos + 4:pos + 8]
        body = data[pos + 8:pos + 8 + length]
        if kind == b"IHDR":
            width, height, depth, colour = struct.unpack(">IIBB", body[:10])
            if (depth, colour) != (8, 2):
                raise ValueError("not an 8-bit RGB PNG")
        elif kind == b"IDAT":
            idat += body
        pos += 12 + length
    raw, stride = zlib.decompress(idat), width * 3 + 1
    if any(raw[y * stride] != 0 for y in range(height)):
        raise ValueError("filtered rows (not written by png_bytes)")
    return width, height, b"".join(raw[y * stride + 1:(y + 1) * stride] for y in range(height))


# -- a canvas with lines and a pixel font -------------------------------------------------------

# 5x7 glyphs, drawn for bedside: seven rows of five, '#' is ink.
_GLYPHS = {
    "0": ".###. #...# #..## #.#.# ##..# #...# .###.",
    "1": "..#.. .##.. ..#.. ..#.. ..#.. ..#.. .###.",
    "2": ".###. #...# ....# ...#. ..#.. .#... #####",
    "3": "####. ....# ....# .###. ....# ....# ####.",
    "4": "...#. ..##. .#.#. #..#. ##### ...#. ...#.",
    "5": "##### #.... ####. ....# ....# #...# .###.",
    "6": "..##. .#... #.... ####. #...# #...# .###.",
    "7": "##### ....# ...#. ..#.. .#... .#... .#...",
    "8": ".###. #...# #...# .###. #...# #...# .###.",
    "9": ".###. #...# #...# .#### ....# ...#. .##..",
    "A": ".###. #...# #...# ##### #...# #...# #...#",
    "B": "####. #...# #...# ####. #...# #...# ####.",
    "C": ".###. #...# #.... #.... #.... #...# .###.",
    "D": "###.. #..#. #...# #...# #...# #..#. ###..",
    "E": "##### #.... #.... ####. #.... #.... #####",
    "F": "##### #.... #.... ####. #.... #.... #....",
    "G": ".###. #...# #.... #.### #...# #...# .####",
    "H": "#...# #...# #...# ##### #...# #...# #...#",
    "I": ".###. ..#.. ..#.. ..#.. ..#.. ..#.. .###.",
    "J": "..### ...#. ...#. ...#. ...#. #..#. .##..",
    "K": "#...# #..#. #.#.. ##... #.#.. #..#. #...#",
    "L": "#.... #.... #.... #.... #.... #.... #####",
    "M": "#...# ##.## #.#.# #.#.# #...# #...# #...#",
    "N": "#...# #...# ##..# #.#.# #..## #...# #...#",
    "O": ".###. #...# #...# #...# #...# #...# .###.",
    "P": "####. #...# #...# ####. #.... #.... #....",
    "Q": ".###. #...# #...# #...# #.#.# #..#. .##.#",
    "R": "####. #...# #...# ####. #.#.. #..#. #...#",
    "S": ".#### #.... #.... .###. ....# ....# ####.",
    "T": "##### ..#.. ..#.. ..#.. ..#.. ..#.. ..#..",
    "U": "#...# #...# #...# #...# #...# #...# .###.",
    "V": "#...# #...# #...# #...# #...# .#.#. ..#..",
    "W": "#...# #...# #...# #.#.# #.#.# #.#.# .#.#.",
    "X": "#...# #...# .#.#. ..#.. .#.#. #...# #...#",
    "Y": "#...# #...# .#.#. ..#.. ..#.. ..#.. ..#..",
    "Z": "##### ....# ...#. ..#.. .#... #.... #####",
    " ": "..... ..... ..... ..... ..... ..... .....",
    ".": "..... ..... ..... ..... ..... .##.. .##..",
    ",": "..... ..... ..... ..... .##.. ..#.. .#...",
    ":": "..... .##.. .##.. ..... .##.. .##.. .....",
    "/": "....# ....# ...#. ..#.. .#... #.... #....",
    "-": "..... ..... ..... .###. ..... ..... .....",
    "+": "..... ..#.. ..#.. ##### ..#.. ..#.. .....",
    "(": "...#. ..#.. .#... .#... .#... ..#.. ...#.",
    ")": ".#... ..#.. ...#. ...#. ...#. ..#.. .#...",
    "%": "##..# ##..# ...#. ..#.. .#... #..## #..##",
    "=": "..... ..... ##### ..... ##### ..... .....",
}
FONT = {ch: rows.split() for ch, rows in _GLYPHS.items()}


class Canvas:
    """An RGB image in memory."""

    def __init__(self, width: int, height: int, background: RGB = WHITE) -> None:
        self.width, self.height = width, height
        self.rgb = bytearray(bytes(background) * (width * height))

    def dot(self, x: int, y: int, colour: RGB) -> None:
        """One pixel (ignored outside the canvas)."""
        if 0 <= x < self.width and 0 <= y < self.height:
            i = (y * self.width + x) * 3
            self.rgb[i:i + 3] = bytes(colour)

    def rect(self, x0: int, y0: int, x1: int, y1: int, colour: RGB) -> None:
        """A filled rectangle, corners included."""
        for y in range(min(y0, y1), max(y0, y1) + 1):
            for x in range(min(x0, x1), max(x0, x1) + 1):
                self.dot(x, y, colour)

    def line(self, x0: float, y0: float, x1: float, y1: float, colour: RGB,
             width: int = 1) -> None:
        """A straight line of square pen `width`."""
        steps = max(1, int(max(abs(x1 - x0), abs(y1 - y0)) * 2))
        half = (width - 1) // 2
        for s in range(steps + 1):
            x = round(x0 + (x1 - x0) * s / steps)
            y = round(y0 + (y1 - y0) * s / steps)
            self.rect(x - half, y - half, x - half + width - 1, y - half + width - 1, colour)

    def path(self, points: list[tuple[float, float]], colour: RGB, width: int = 1,
             dash: int = 0) -> None:
        """Lines through `points`; `dash` > 0 draws every other stretch of that length."""
        run = 0.0
        for (x0, y0), (x1, y1) in zip(points, points[1:], strict=False):
            length = math.hypot(x1 - x0, y1 - y0)
            pieces = max(1, int(length // 2)) if dash else 1
            for k in range(pieces):
                a, b = k / pieces, (k + 1) / pieces
                if not dash or int((run + length * a) // dash) % 2 == 0:
                    self.line(x0 + (x1 - x0) * a, y0 + (y1 - y0) * a,
                              x0 + (x1 - x0) * b, y0 + (y1 - y0) * b, colour, width)
            run += length

    def text(self, x: int, y: int, words: str, colour: RGB = BLACK, scale: int = 2) -> None:
        """Capital letters in the 5x7 font, `scale` pixels per font pixel."""
        for n, ch in enumerate(words.upper()):
            glyph = FONT.get(ch, FONT[" "])
            for row, bits in enumerate(glyph):
                for col, bit in enumerate(bits):
                    if bit == "#":
                        left, top = x + (n * 6 + col) * scale, y + row * scale
                        self.rect(left, top, left + scale - 1, top + scale - 1, colour)

    def png(self) -> bytes:
        """The canvas as PNG bytes."""
        return png_bytes(self.width, self.height, bytes(self.rgb))


# -- reading the case's values ------------------------------------------------------------------

def _item(case: Case, name: str) -> Item:
    for _, path, item in case.findings():
        if path[-1].lower() == name.lower():
            return item
    raise ValueError(f"case {case.id} has no result named '{name}'")


def _number(text: str, pattern: str) -> float:
    match = re.search(pattern, text)
    if not match:
        raise ValueError(f"no value matching {pattern!r} in {text!r}")
    return float(match.group(1))


# -- the drawings -------------------------------------------------------------------------------

def _ecg_voltage(t: float, atrial: float, ventricular: float) -> float:
    """Lead II in mV at time t (s): negative sawtooth atrial waves at `atrial`/min, a narrow
    QRS and a low T wave at `ventricular`/min."""
    period = 60.0 / atrial
    phase = (t % period) / period
    saw = 0.05 - 0.35 * phase / 0.7 if phase < 0.7 else -0.30 + 0.35 * (phase - 0.7) / 0.3
    beat = 60.0 / ventricular
    since = (t - 0.12) % beat
    qrs = 0.0
    for centre, height, spread in ((0.015, -0.12, 0.008), (0.04, 1.25, 0.011),
                                   (0.066, -0.28, 0.009), (0.26, 0.18, 0.045)):
        qrs += height * math.exp(-((since - centre) / spread) ** 2)
    return saw + qrs


def rhythm_strip(case: Case) -> Canvas:
    """card-101: ten seconds of lead II at 25 mm/s and 10 mm/mV on ECG paper."""
    ecg = _item(case, "Electrocardiogram").value or ""
    ventricular = _number(ecg, r"ventricular rate (\d+)/min")
    atrial = _number(ecg, r"atrial waves at (\d+)/min")
    mm, left, top, seconds = 4, 20, 40, 10
    width, height = left * 2 + seconds * 25 * mm, top + 50 * mm + 20
    canvas = Canvas(width, height)
    # Major lines two pixels wide and a heavy trace, so the strip still reads when a
    # terminal draws it four times smaller in coloured half blocks.
    for x in range(0, seconds * 25 + 1):
        major = x % 5 == 0
        canvas.rect(left + x * mm, top, left + x * mm + major, top + 50 * mm,
                    (235, 150, 150) if major else (250, 222, 222))
    for y in range(0, 51):
        major = y % 5 == 0
        canvas.rect(left, top + y * mm, left + seconds * 25 * mm, top + y * mm + major,
                    (235, 150, 150) if major else (250, 222, 222))
    baseline = top + 30 * mm
    # The 1 mV calibration pulse, then the trace.
    canvas.path([(left + 2, baseline), (left + 6, baseline), (left + 6, baseline - 10 * mm),
                 (left + 26, baseline - 10 * mm), (left + 26, baseline), (left + 34, baseline)],
                BLACK, 4)
    start = left + 40
    points = [(float(x), baseline - _ecg_voltage((x - start) / (25 * mm), atrial,
                                                 ventricular) * 10 * mm)
              for x in range(start, left + seconds * 25 * mm)]
    canvas.path(points, BLACK, 4)
    canvas.text(left, 10, "II", scale=3)
    canvas.text(left + 60, 14, "25 MM/S   10 MM/MV")
    return canvas


def _loop(fvc: float, peak_out: float, peak_in: float, flat: bool,
          n: int = 120) -> list[tuple[float, float]]:
    """(volume, flow) around a flow-volume loop: expiration then inspiration."""
    out: list[tuple[float, float]] = []
    for i in range(n + 1):
        v = fvc * i / n
        rise = 1 - math.exp(-v / (0.035 * fvc))
        if flat:  # a plateau until late in expiration, then a fall to zero
            fall = min(1.0, (fvc - v) / (0.35 * fvc))
            out.append((v, peak_out * rise * fall))
        else:  # a peak early, then a straight-ish fall
            out.append((v, rise * (fvc - v)))
    if not flat:  # scaled so that the peak is the predicted peak flow
        top = max(f for _, f in out)
        out = [(v, peak_out * f / top) for v, f in out]
    for i in range(n + 1):
        v = fvc * (1 - i / n)
        shape = math.sin(math.pi * i / n)
        flow = min(1.0, shape * 2.2) if flat else shape
        out.append((v, -peak_in * flow))
    return out


def flow_volume_loop(case: Case) -> Canvas:
    """pulm-101: the measured loop (solid) over the predicted one (dashed)."""
    spiro = {i.name: i.value or "" for i in _item(case, "Spirometry").children}
    fvc = _number(spiro["FVC"], r"([\d.]+) L")
    fvc_pred = fvc / (_number(spiro["FVC"], r"(\d+)% predicted") / 100)
    pef, pef_pred = (_number(spiro["Peak expiratory flow"], p)
                     for p in (r"([\d.]+) L/s", r"predicted ([\d.]+)"))
    pif, pif_pred = (_number(spiro["Peak inspiratory flow"], p)
                     for p in (r"([\d.]+) L/s", r"predicted ([\d.]+)"))
    canvas = Canvas(560, 440)
    ox, oy, sx, sy = 80, 232, 90.0, 22.0  # origin and pixels per L and per L/s
    top_flow, bottom_flow, max_volume = 9, -7, 5
    for f in range(bottom_flow, top_flow + 1):
        canvas.line(ox, oy - f * sy, ox + max_volume * sx, oy - f * sy,
                    (200, 200, 200) if f else GREY)
        if f % 2 == 0:
            canvas.text(ox - 34 if f < 0 else ox - 22, int(oy - f * sy) - 7, str(f))
    for v in range(max_volume + 1):
        canvas.line(ox + v * sx, oy - top_flow * sy, ox + v * sx, oy - bottom_flow * sy,
                    (225, 225, 225) if v else GREY)
        canvas.text(int(ox + v * sx) - 5, int(oy - bottom_flow * sy) + 8, str(v))
    predicted = [(ox + v * sx, oy - f * sy) for v, f in _loop(fvc_pred, pef_pred, pif_pred,
                                                               False)]
    canvas.path(predicted, (70, 100, 200), 3, dash=10)
    measured = [(ox + v * sx, oy - f * sy) for v, f in _loop(fvc, pef, pif, True)]
    canvas.path(measured, BLACK, 5)
    canvas.text(ox, 10, "FLOW (L/S)")
    canvas.text(ox + int(max_volume * sx) - 100, int(oy - bottom_flow * sy) + 30, "VOLUME (L)")
    canvas.text(ox + 250, 44, "EXPIRATION", GREY)
    canvas.text(ox + 250, int(oy + 5 * sy), "INSPIRATION", GREY)
    return canvas


def temperature_chart(case: Case) -> Canvas:
    """id-101: the patient's readings, four a day, with 37.5 °C dashed."""
    record = _item(case, "Temperature record").value or ""
    readings: list[tuple[int, float]] = []
    for day, body in re.findall(r"Day (\d+):([^D]*)", record):
        readings += [(int(day), float(t)) for t in re.findall(r"\d\d:\d\d (\d\d\.\d)", body)]
    canvas = Canvas(640, 360)
    ox, oy, low, high = 70, 300, 36.0, 41.0
    step, sy = 22, 250 / (high - low)
    for tenth in range(int(low * 2), int(high * 2) + 1):
        value = tenth / 2
        y = oy - (value - low) * sy
        canvas.line(ox, y, ox + step * len(readings), y, GREY if tenth % 2 == 0 else
                    (225, 225, 225))
        if tenth % 2 == 0:
            canvas.text(ox - 40, int(y) - 7, str(int(value)))
    days = sorted({d for d, _ in readings})
    for n, day in enumerate(days):
        x = ox + n * 4 * step
        canvas.line(x, oy - (high - low) * sy, x, oy, GREY)
        canvas.text(x + 10, oy + 12, f"DAY {day}")
    fever = oy - (37.5 - low) * sy
    canvas.path([(ox, fever), (ox + step * len(readings), fever)], (200, 60, 60), 2, dash=8)
    points = [(ox + step * (i + 0.5), oy - (t - low) * sy) for i, (_, t) in enumerate(readings)]
    canvas.path(points, (30, 60, 160), 4)
    for x, y in points:
        canvas.rect(int(x) - 4, int(y) - 4, int(x) + 4, int(y) + 4, (30, 60, 160))
    canvas.text(ox, 12, "TEMPERATURE (C), 06 12 18 24 H")
    return canvas


DRAWINGS: dict[str, Callable[[Case], Canvas]] = {
    "card-101": rhythm_strip, "pulm-101": flow_volume_loop, "id-101": temperature_chart}


def drawn(root: Path | None = None) -> list[tuple[Path, Canvas]]:
    """(image file, drawing) of every drawn image of the bundled cases (the case's first
    image path, beside its case file)."""
    out = []
    for path in iter_case_files(root or bundled_cases_dir()):
        case = load_case_file(path)
        if case.id in DRAWINGS:
            target = path.parent / str(case.images[0].path)
            out.append((target, DRAWINGS[case.id](case)))
    return out


def main(argv: list[str] | None = None) -> int:
    """Write the images, or with --check report those that differ from their drawing."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--check", action="store_true",
                        help="compare the committed images with their drawings")
    args = parser.parse_args(argv)
    stale = 0
    for target, canvas in drawn():
        if args.check:
            try:
                same = png_pixels(target.read_bytes()) == (canvas.width, canvas.height,
                                                            bytes(canvas.rgb))
            except (OSError, ValueError):
                same = False
            if not same:
                stale += 1
                print(f"{target}: differs from its drawing (run python -m cases.draw_images)")
            continue
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_bytes(canvas.png())
        print(f"{target} ({target.stat().st_size} bytes)")
    return 1 if stale else 0


if __name__ == "__main__":
    sys.exit(main())
