"""Ctrl+C and SIGTERM as a cancellation of the running task: the signal reaches the work
as a callback of the event loop, never as an exception raised wherever the interpreter
happens to be, so shutdown is orderly (statuses set, nothing half-written)."""

from __future__ import annotations

import asyncio
import signal


def cancel_on_signals() -> None:
    """Cancel the current task on SIGTERM, and on SIGINT unless this process was started
    with it ignored (a background job). Call from inside the task."""
    task = asyncio.current_task()
    loop = asyncio.get_running_loop()
    wanted = [signal.SIGTERM]
    if signal.getsignal(signal.SIGINT) is not signal.SIG_IGN:
        wanted.append(signal.SIGINT)
    for sig in wanted:
        try:
            loop.add_signal_handler(sig, task.cancel)  # type: ignore[union-attr]
        except (NotImplementedError, RuntimeError, ValueError):  # not here / not main thread
            pass
