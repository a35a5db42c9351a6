"""A handle on an asynchronous job (ingest, distill, refine): its status, or wait() for its end."""

from __future__ import annotations

import asyncio
import time
from typing import Any, Dict, Generic, Optional, TypeVar

from .errors import JobFailedError, TimeoutError

S = TypeVar("S")
TERMINAL = frozenset({"succeeded", "failed", "rejected"})


class _Job(Generic[S]):
    def __init__(
        self, transport: Any, path: str, job_id: str, accepted: Optional[Dict[str, Any]]
    ) -> None:
        self._t = transport
        self._path = path
        self.id = job_id
        #: The 202 answer that started the job (None for a handle made from an id).
        self.accepted = accepted

    def _settle(self, status: Any) -> bool:
        if status["state"] not in TERMINAL:
            return False
        if status["state"] != "succeeded":
            raise JobFailedError(status)
        return True


class SyncJob(_Job[S]):
    def status(self, *, timeout: Optional[float] = None) -> S:
        return self._t.call("GET", self._path, timeout=timeout)  # type: ignore[no-any-return]

    def wait(
        self,
        *,
        interval: float = 0.25,
        max_interval: float = 5.0,
        wait_timeout: float = 300.0,
        timeout: Optional[float] = None,
    ) -> S:
        """Polls with backoff (×1.5 a poll) until the job ends: the final status, or raises."""
        deadline = time.monotonic() + wait_timeout
        while True:
            status = self.status(timeout=timeout)
            if self._settle(status):
                return status
            if time.monotonic() + interval > deadline:
                raise TimeoutError(f"job {self.id} still running after {wait_timeout} s")
            time.sleep(interval)
            interval = min(max_interval, interval * 1.5)


class AsyncJob(_Job[S]):
    async def status(self, *, timeout: Optional[float] = None) -> S:
        return await self._t.call("GET", self._path, timeout=timeout)  # type: ignore[no-any-return]

    async def wait(
        self,
        *,
        interval: float = 0.25,
        max_interval: float = 5.0,
        wait_timeout: float = 300.0,
        timeout: Optional[float] = None,
    ) -> S:
        """Polls with backoff (×1.5 a poll) until the job ends: the final status, or raises."""
        deadline = time.monotonic() + wait_timeout
        while True:
            status = await self.status(timeout=timeout)
            if self._settle(status):
                return status
            if time.monotonic() + interval > deadline:
                raise TimeoutError(f"job {self.id} still running after {wait_timeout} s")
            await asyncio.sleep(interval)
            interval = min(max_interval, interval * 1.5)
