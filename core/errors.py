"""The error hierarchy: every error a user can cause carries a one-line, user-facing message.

The CLI and the app turn a `BedsideError` into that one line (never a traceback); anything
else is a bug and is logged with its traceback.
"""

from __future__ import annotations


class BedsideError(Exception):
    """Base of user-facing errors. `str(err)` is the one-line message."""

    title = "Error"

    def __init__(self, message: str, *, title: str | None = None) -> None:
        super().__init__(message)
        if title:
            self.title = title


class InputError(BedsideError):
    """A file or value supplied by the user is malformed. The message names file/line/field."""

    title = "Invalid input"

    def __init__(self, message: str, *, path: str | None = None, line: int | None = None,
                 field: str | None = None) -> None:
        where = ":".join(str(p) for p in (path, line) if p is not None)
        parts = [p for p in (where, f"field '{field}'" if field else None, message) if p]
        super().__init__(": ".join(parts))
        self.path, self.line, self.field, self.reason = path, line, field, message


class NotFoundError(BedsideError):
    """A named thing (case, study, run, rater) does not exist."""

    title = "Not found"


class ModelError(BedsideError):
    """A model call failed after retries (rate limit, server error, timeout, bad reply)."""

    title = "Model error"


class CredentialError(ModelError):
    """The provider refused the API key (missing, wrong, revoked, or not allowed this model):
    every further call would fail the same way, so callers stop at the first one."""

    title = "API key refused"


class RecordError(BedsideError):
    """A sink (usually the store) could not record an event; the consultation fails with
    this reason rather than going on unrecorded."""

    title = "Could not record"



class RunHalted(BedsideError):
    """A run cannot go on in this process: its database cannot be written, or another
    process has taken the run over. What was committed is kept and the run is resumable;
    the batch stops at once rather than record failures that are not the consultations'."""

    title = "Run stopped"


class StorageError(RunHalted):
    """The database could not be written or read (a full disk, a read-only file, an I/O
    error, a lock held too long by another process). Nothing is wrong with the work itself:
    what was committed before is kept, and the same command can be run again once the
    cause is fixed (a run resumes)."""

    title = "Database error"


class LeaseLostError(RunHalted):
    """Another process took this run over (its owner's heartbeat had stopped): this process
    must not record anything more for it."""

    title = "Run taken over"


class RunBusyError(BedsideError):
    """A run is being run by another live process (it holds the run's lease)."""

    title = "Run busy"
