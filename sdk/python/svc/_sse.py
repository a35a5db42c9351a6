"""Server-sent events from lines, and the recall stream's events from them."""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import Any, AsyncIterator, Dict, Iterator, List, Optional

from .errors import error_from_problem


@dataclass(frozen=True)
class RecallEvent:
    """One event of the recall stream: ``type`` is "result" (``result`` set, with its ``rank``) or
    "summary" (``summary`` set: count, strategy, routing, …; always the last event)."""

    type: str
    result: Optional[Dict[str, Any]] = None
    summary: Optional[Dict[str, Any]] = None


@dataclass
class _SseParser:
    event: str = "message"
    data: List[str] = field(default_factory=list)

    def feed(self, line: str) -> Optional[RecallEvent]:
        """Takes one line; returns the event a blank line completes. An error event raises."""
        if line == "":
            event, data = self.event, "\n".join(self.data)
            complete = bool(self.data)
            self.event, self.data = "message", []
            return _recall_event(event, data) if complete else None
        if line.startswith(":"):
            return None
        name, _, value = line.partition(":")
        value = value[1:] if value.startswith(" ") else value
        if name == "event":
            self.event = value
        elif name == "data":
            self.data.append(value)
        return None

    def end(self) -> Optional[RecallEvent]:
        return self.feed("")


def _recall_event(event: str, data: str) -> Optional[RecallEvent]:
    if event == "result":
        return RecallEvent("result", result=json.loads(data))
    if event == "summary":
        return RecallEvent("summary", summary=json.loads(data))
    if event == "error":
        raise error_from_problem(json.loads(data))
    return None


def sync_recall_events(lines: Iterator[str]) -> Iterator[RecallEvent]:
    parser = _SseParser()
    with _closing(lines):
        for line in lines:
            event = parser.feed(line)
            if event is not None:
                yield event
        last = parser.end()
        if last is not None:
            yield last


async def async_recall_events(lines: AsyncIterator[str]) -> AsyncIterator[RecallEvent]:
    parser = _SseParser()
    try:
        async for line in lines:
            event = parser.feed(line)
            if event is not None:
                yield event
        last = parser.end()
        if last is not None:
            yield last
    finally:
        # Leaving the loop early closes the request, so the server stops its work.
        await lines.aclose()  # type: ignore[attr-defined]


class _closing:
    """Closes a generator when the consumer leaves, so the server stops its work."""

    def __init__(self, lines: Iterator[str]) -> None:
        self.lines = lines

    def __enter__(self) -> None:
        return None

    def __exit__(self, *exc: object) -> None:
        self.lines.close()  # type: ignore[attr-defined]


def sync_json_lines(lines: Iterator[str]) -> Iterator[Dict[str, Any]]:
    with _closing(lines):
        for line in lines:
            if line:
                yield json.loads(line)


async def async_json_lines(lines: AsyncIterator[str]) -> AsyncIterator[Dict[str, Any]]:
    try:
        async for line in lines:
            if line:
                yield json.loads(line)
    finally:
        await lines.aclose()  # type: ignore[attr-defined]
