"""The images of a consultation, on the engine's side (see `core.images` for the modes).

`prepare_images` reads the case's images when the consultation starts (off the event loop)
and shows the doctor the up-front ones. A model doctor needs every image it may be shown:
an image that cannot be had (not cached, a missing file) fails the consultation with a
one-line reason naming the case, the image and why, and so does a model that litellm knows
cannot see images; a model litellm does not know gets them, with a warning kept in the
transcript's meta (`bedside run` says it once before the run: `core.usecases.image_check`).
A physician is shown what can be had and, for the rest, the file's
name, its caption and why it cannot be shown.

`images_turn` answers `REQUEST IMAGES`: the engine itself, not an agent, as a `system` turn
of kind `images` that lists the images and keeps their references (name, caption, sha256)
in its meta; the images the doctor had not seen are shown to it from then on. The patient
and the examiner never receive an image.
"""

from __future__ import annotations

import asyncio

from core.errors import BedsideError
from core.image_cache import default_cache
from core.images import CaseImage, load_images
from core.solvers.context import SolverContext
from core.transcript import Role, Turn, utc_now


async def prepare_images(ctx: SolverContext) -> None:
    """Read the case's images and show the doctor the up-front ones (see the module)."""
    ctx.images = await read_images(ctx, ctx.config.images)
    ctx.shown_images = [i for i in ctx.images if i.upfront]


async def read_images(ctx: SolverContext, mode: str) -> list[CaseImage]:
    """The case's images under `mode`; for a model doctor, each one readable and the model
    not known to be blind, else a BedsideError (one line)."""
    if not ctx.case.images:
        return []
    images = await asyncio.to_thread(load_images, ctx.case, mode, default_cache())
    spec = ctx.config.doctor
    if spec.kind == "llm" and spec.model:
        await _check_model(ctx, spec.model)
        missing = [i.problem for i in images if i.problem]
        if missing:
            raise BedsideError(f"{missing[0]}" + (f" (and {len(missing) - 1} more)"
                                                  if len(missing) > 1 else ""))
    return images


async def _check_model(ctx: SolverContext, model: str) -> None:
    sees = await ctx.llm.vision(model)
    n = len(ctx.case.images)
    if sees is False:
        raise BedsideError(f"{model} cannot see images (litellm's model map says so), and "
                           f"case {ctx.case.id} has {n}: play it with a model that can")
    if sees is None:
        warning = (f"litellm does not know whether {model} can see images; it is sent "
                   f"{'this image' if n == 1 else f'these {n} images'} anyway")
        ctx.transcript.meta.setdefault("warnings", []).append(warning)


def images_text(new: list[CaseImage], case_has: int) -> str:
    """What the images turn says (the images themselves travel beside it)."""
    if not case_has:
        return "This case has no images."
    if not new:
        return "There are no more images: every image of this case has been shown."
    lines = ["Images:"]
    for image in new:
        lines.append(image.label)
        if image.problem:
            lines.append(f"  (cannot be shown: {image.problem})")
    return "\n".join(lines)


async def images_turn(ctx: SolverContext, dt: int) -> None:
    """Answer `REQUEST IMAGES` (doctor turn `dt`) with the images not shown yet."""
    index = ctx.start_turn(Role.SYSTEM, dt)
    started = utc_now()
    shown = {i.number for i in ctx.shown_images}
    new = [i for i in ctx.images if i.number not in shown]
    ctx.shown_images = [*ctx.shown_images, *new]
    ctx.add_turn(Turn(
        index=index, role=Role.SYSTEM, addressee=Role.DOCTOR, doctor_turn=dt, kind="images",
        content=images_text(new, len(ctx.images)), started_at=started, ended_at=utc_now(),
        latency_ms=0.0, model="engine", meta={"images": [i.reference() for i in new]}))
