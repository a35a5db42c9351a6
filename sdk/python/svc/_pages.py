# Walking a cursor-paginated listing (GET /v1/memories, GET /v1/agents) page by page, lazily.
from __future__ import annotations

import json
from typing import Any, AsyncIterator, Dict, Iterator, Mapping, Optional


def list_query(query: Mapping[str, Any], metadata: Optional[Mapping[str, Any]]) -> Dict[str, Any]:
    """The listing's query with `metadata` as `metadata.<key>=<value>` equality parameters (a
    non-string value is sent as its JSON text, which the server matches as that JSON value too)."""
    flat = {f"metadata.{k}": v if isinstance(v, str) else json.dumps(v)
            for k, v in (metadata or {}).items()}
    return {**query, **flat}


def sync_pages(
    transport: Any, path: str, query: Dict[str, Any], timeout: Optional[float]
) -> Iterator[Any]:
    cursor = None
    while True:
        page = transport.call("GET", path, query={**query, "cursor": cursor}, timeout=timeout)
        yield from page["items"]
        cursor = page.get("next_cursor")
        if not cursor:
            return


async def async_pages(
    transport: Any, path: str, query: Dict[str, Any], timeout: Optional[float]
) -> AsyncIterator[Any]:
    cursor = None
    while True:
        page = await transport.call("GET", path, query={**query, "cursor": cursor}, timeout=timeout)
        for item in page["items"]:
            yield item
        cursor = page.get("next_cursor")
        if not cursor:
            return
