"""The doctor's prompt texts about images (`core.images`), written for bedside.

Each is a `str.format` template, versioned in `core.prompts.PROMPTS` like every prompt. The
on-request note is added to the doctor's system prompt (where the options go) when the case
has images the doctor has not seen; the two short lines head the image parts of a message.
The keyword `REQUEST IMAGES` stays English in every language, as `REQUEST TEST` does.

Must not import: anything but the standard library.
"""

from __future__ import annotations

DOCTOR_IMAGES_ON_REQUEST = """\
- This case has {count} image(s) that you have not seen. To see them, write a line
  REQUEST IMAGES
  It counts as one of your turns; the images come in the next message."""

DOCTOR_IMAGES_UPFRONT = "The images below come with the presentation."

DOCTOR_IMAGES_GIVEN = "The images you asked for:"
