"""The asyncio client against the real server: same routes, awaited; streams and pages are async."""

from __future__ import annotations

import asyncio
from typing import Any, Awaitable, Callable

import pytest

import svc
from svc import AsyncSvc


def run(base_url: str, api_key: str, body: Callable[[AsyncSvc], Awaitable[Any]]) -> Any:
    async def main() -> Any:
        async with AsyncSvc(base_url, api_key) as client:
            return await body(client)

    return asyncio.run(main())


def test_async_round_trip_stream_and_errors(base_url: str, api_key: str, agent: str) -> None:
    async def body(client: AsyncSvc) -> None:
        stored = await client.memories.store(
            agent_id=agent, content="the cat sleeps on the red sofa"
        )
        batch = await client.memories.batch(
            memories=[{"agent_id": agent, "content": "the dog sleeps outside"}]
        )
        assert batch["count"] == 1
        recalled = await client.memories.recall(
            agent_id=agent, query="cat sofa", strategy="LEXICAL"
        )
        assert recalled["results"][0]["memory_id"] == stored["memory_id"]
        events = [
            e
            async for e in client.memories.recall_stream(
                agent_id=agent, query="sleeps", strategy="LEXICAL"
            )
        ]
        assert [e.type for e in events] == ["result", "result", "summary"]
        with pytest.raises(svc.ValidationError) as caught:
            await client.memories.recall(agent_id=agent, query="x", top_k=0)
        assert caught.value.field == "/top_k"
        with pytest.raises(svc.NotFoundError):
            await client.memories.get("mem_01ARZ3NDEKTSV4RRFFQ69G5FAV")
        assert (await client.memories.forget(memory_id=stored["memory_id"]))["forgotten"] == [
            stored["memory_id"]
        ]

    run(base_url, api_key, body)


def test_async_job_wait_and_chain(base_url: str, api_key: str, agent: str) -> None:
    async def body(client: AsyncSvc) -> None:
        job = await client.forge.ingest(
            agent_id=agent, text="The VPN certificate expires in March."
        )
        done = await job.wait(wait_timeout=120)
        assert done["state"] == "succeeded" and len(done["memory_ids"]) == 1
        rows = [r async for r in client.audit.list(agent_id=agent)]
        assert all(r["agent_id"] == agent for r in rows)
        verdict = await client.audit.verify_chain()
        assert verdict.ok and verdict.rows > 0
        records = [r async for r in client.export.records()]
        assert records[0]["k"] == "header"

    run(base_url, api_key, body)


def test_async_listing_pages(base_url: str, api_key: str, agent: str) -> None:
    async def body(client: AsyncSvc) -> None:
        for i in range(3):
            await client.memories.store(agent_id=agent, content=f"async listed {i}", metadata={"n": i})
        seen = [m["content"] async for m in client.memories.list(agent_id=agent, limit=1)]
        assert seen == ["async listed 2", "async listed 1", "async listed 0"]
        one = await client.memories.page(agent_id=agent, metadata={"n": 1})
        assert [m["content"] for m in one["items"]] == ["async listed 1"]
        agents = [a["agent_id"] async for a in client.agents.list()]
        assert agent in agents

    run(base_url, api_key, body)
