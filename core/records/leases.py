"""The lease that makes one process the owner of a run (`core.usecases.leases`)."""

from __future__ import annotations

from pydantic import BaseModel, Field


class LeaseRecord(BaseModel):
    """Who runs a run now: one row per run, renewed by its owner's heartbeat."""

    run_id: str = Field(description="The run.")
    token: str = Field(description="A fresh id per owner: what its writes are checked "
                       "against (a taken-over owner's token no longer matches).")
    host: str = Field(description="The owner's host name.")
    pid: int = Field(description="The owner's process id on that host.")
    pid_start: int | None = Field(None, description="When that process started (clock ticks "
                                  "since boot, from /proc; None where unknown), so a reused "
                                  "pid is not taken for the owner.")
    since: str = Field(description="ISO UTC time the owner took the lease.")
    heartbeat_at: float = Field(description="Seconds since the epoch of the owner's last "
                                "heartbeat.")
