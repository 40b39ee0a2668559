"""One owner per run: a lease in the database, renewed by a heartbeat.

A process that creates, resumes or (with `--workers`) supervises a run takes the run's lease
first; a second process that tries while the owner lives is refused with one line naming it
(host, pid, since when, last heartbeat). The lease of an owner that is gone is taken over:
on the same host when its process no longer exists (checked at once: no waiting after a
kill), on another host when its heartbeat has been silent for `STALE_AFTER_S`. Taking is one
write transaction (`LeaseStore.take_lease`), so of two processes resuming at once exactly
one wins.

An owner alive on this host is never taken over, even with a silent heartbeat (a stopped
process, Ctrl+Z, would otherwise wake up beside its successor). Across hosts that cannot be
known; there every write of a run is fenced instead: the recorder writes an event only while
the writer's token holds the lease, so an owner that was taken over records nothing more and
stops (`LeaseLostError`).
"""

from __future__ import annotations

import asyncio
import os
import socket
import time
from collections.abc import Awaitable, Callable
from datetime import UTC, datetime
from typing import TYPE_CHECKING

from core.errors import LeaseLostError, RunBusyError, RunHalted, StorageError
from core.ids import new_id
from core.ports.runs import LeaseStore, RunsStore
from core.records.leases import LeaseRecord
from core.transcript import utc_now

if TYPE_CHECKING:
    from core.batch import JobOutcome

#: What runs under a lease: given the fence (run id, token) and the cancel event.
Body = Callable[[tuple[str, str], asyncio.Event], Awaitable[list["JobOutcome"]]]

HEARTBEAT_S = 5.0  # how often the owner renews its lease
STALE_AFTER_S = 60.0  # a lease from another host with no heartbeat this long is taken over


def _process_start(pid: int) -> int | None:
    """When process `pid` started (clock ticks since boot, Linux /proc), None if unknown."""
    try:
        with open(f"/proc/{pid}/stat", encoding="ascii", errors="replace") as f:
            fields = f.read().rsplit(")", 1)[1].split()
        return int(fields[19])  # field 22 of stat(5); fields[0] is field 3 (state)
    except (OSError, IndexError, ValueError):
        return None


def _process_state(pid: int) -> str | None:
    try:
        with open(f"/proc/{pid}/stat", encoding="ascii", errors="replace") as f:
            return f.read().rsplit(")", 1)[1].split()[0]
    except (OSError, IndexError):
        return None


def process_alive(pid: int, started: int | None) -> bool:
    """Whether process `pid` of this host exists and is the one that started at `started`
    (when known; a pid reused by a newer process is not it). A zombie is not alive."""
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:  # exists, another user's
        pass
    if _process_state(pid) in ("Z", "X"):
        return False
    return started is None or _process_start(pid) in (None, started)


def new_lease(run_id: str) -> LeaseRecord:
    """A lease for this process."""
    pid = os.getpid()
    return LeaseRecord(run_id=run_id, token=new_id("ls-"), host=socket.gethostname(), pid=pid,
                       pid_start=_process_start(pid), since=utc_now(), heartbeat_at=time.time())


def may_take(held: LeaseRecord, now: float | None = None) -> bool:
    """Whether a held lease may be taken over: its owner on this host is gone, or its owner
    on another host has not renewed it for STALE_AFTER_S."""
    if held.host == socket.gethostname():
        return not process_alive(held.pid, held.pid_start)
    return (now if now is not None else time.time()) - held.heartbeat_at > STALE_AFTER_S


def _ago(seconds: float) -> str:
    return f"{max(0, round(seconds))} s ago"


def describe_owner(held: LeaseRecord, run_ref: str, now: float | None = None) -> str:
    """One line naming who runs the run."""
    since = held.since
    try:
        since = datetime.fromisoformat(held.since.replace("Z", "+00:00")).astimezone(
            UTC).strftime("%Y-%m-%d %H:%M:%S UTC")
    except ValueError:
        pass
    beat = _ago((now if now is not None else time.time()) - held.heartbeat_at)
    return (f"run '{run_ref}' is being run by process {held.pid} on {held.host} since {since}"
            f" (last heartbeat {beat}); wait for it to end, or stop it and resume")


def acquire(store: LeaseStore, run_id: str, run_ref: str | None = None,
            lease: LeaseRecord | None = None) -> LeaseRecord:
    """Take the run's lease for this process (a new one, or `lease` again: a spec executed
    twice), or raise RunBusyError naming its owner."""
    lease = new_lease(run_id) if lease is None else lease.model_copy(
        update={"heartbeat_at": time.time()})
    held = store.take_lease(lease, may_take)
    if held is not None:
        raise RunBusyError(describe_owner(held, run_ref or run_id))
    return lease


async def heartbeat(store: LeaseStore, lease: LeaseRecord, lost: asyncio.Event,
                    every: float = HEARTBEAT_S) -> None:
    """Renew the lease every `every` seconds until cancelled; set `lost` and return when it
    is no longer ours. A database that cannot be written now is tried again next time (the
    run's own writes stop it if the failure lasts)."""
    while True:
        await asyncio.sleep(every)
        try:
            held = store.renew_lease(lease.run_id, lease.token, time.time())
        except StorageError:
            continue
        if not held:
            lost.set()
            return


def final_status(outcomes: list[JobOutcome], cancel_event: asyncio.Event | None) -> str:
    """cancelled (a consultation or the batch was cancelled), else finished."""
    if (cancel_event is not None and cancel_event.is_set()) or any(
            o.status == "cancelled" for o in outcomes):
        return "cancelled"
    return "finished"


async def owned(store: RunsStore, lease: LeaseRecord, body: Body,
                cancel_event: asyncio.Event | None = None) -> list[JobOutcome]:
    """Run `body` as the owner of `lease`'s run: the lease renewed all along, the status
    'running' meanwhile, and let go with the final status however it ends — finished or
    cancelled, interrupted (the task was cancelled, or the run halted: RunHalted), failed
    (a bug) — unless the run was taken over (then nothing is written)."""
    run_id = lease.run_id
    cancel = cancel_event or asyncio.Event()
    lost = asyncio.Event()
    beat = asyncio.create_task(_keep(store, lease, lost, cancel))
    status, ended = "failed", False
    try:
        store.set_run_status(run_id, "running")
        outcomes = await body((run_id, lease.token), cancel)
        if lost.is_set():
            raise LeaseLostError(f"run {run_id} was taken over by another process "
                                 "while this one ran it; this one stopped")
        status, ended = final_status(outcomes, cancel_event), True
        return outcomes
    except (asyncio.CancelledError, RunHalted):
        status = "interrupted"
        raise
    finally:
        beat.cancel()
        _let_go(store, lease, status, must=ended)


async def _keep(store: LeaseStore, lease: LeaseRecord, lost: asyncio.Event,
                cancel: asyncio.Event) -> None:
    """The heartbeat; a lost lease cancels the run (its writes are fenced anyway)."""
    await heartbeat(store, lease, lost)
    cancel.set()


def _let_go(store: LeaseStore, lease: LeaseRecord, status: str, *, must: bool) -> None:
    """Release the lease with the final status. When the run is already stopping for
    another reason, a database that cannot be written now does not hide that reason (the
    run stays 'running', which a resume handles)."""
    try:
        store.release_lease(lease.run_id, lease.token, status)
    except StorageError:
        if must:
            raise
