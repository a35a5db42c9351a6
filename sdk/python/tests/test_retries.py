"""Retries, Retry-After, idempotency keys and timeouts, against a scripted fake server (a real one
cannot be made to answer 429 or 503 or drop a connection on demand)."""

from __future__ import annotations

import asyncio
import uuid

import pytest

import svc
from svc import AsyncSvc, Svc

from .conftest import FakeServer, Reply, problem

STORED = {"memory_id": "mem_1", "version": 1}


def test_a_429_is_retried_after_retry_after_with_the_same_idempotency_key(fake: FakeServer) -> None:
    fake.script = [
        Reply(429, problem(429, "rate-limited"), {"retry-after": "1"}),
        Reply(201, STORED),
    ]
    with Svc(fake.url, "svc_sk_test") as client:
        assert client.memories.store(agent_id="a", content="c") == STORED
    first, second = fake.requests
    assert second["at"] - first["at"] >= 1.0  # waited what Retry-After said
    key = first["headers"]["idempotency-key"]
    assert uuid.UUID(key).version == 4
    assert second["headers"]["idempotency-key"] == key
    assert first["body"] == second["body"] == {"agent_id": "a", "content": "c"}
    assert first["headers"]["authorization"] == "Bearer svc_sk_test"


def test_a_503_is_retried_and_every_call_gets_its_own_key(fake: FakeServer) -> None:
    fake.script = [
        Reply(503, problem(503, "service-unavailable"), {"retry-after": "0"}),
        Reply(201, STORED),
        Reply(201, STORED),
    ]
    with Svc(fake.url) as client:
        client.memories.store(agent_id="a", content="c")
        client.memories.store(agent_id="a", content="c")
    keys = [r["headers"]["idempotency-key"] for r in fake.requests]
    assert keys[0] == keys[1] and keys[2] != keys[0]


def test_a_given_idempotency_key_is_sent_as_is(fake: FakeServer) -> None:
    fake.script = [Reply(201, STORED)]
    with Svc(fake.url) as client:
        client.memories.store(agent_id="a", content="c", idempotency_key="job-42")
    assert fake.requests[0]["headers"]["idempotency-key"] == "job-42"


def test_only_posts_carry_a_key(fake: FakeServer) -> None:
    fake.script = [Reply(200, {"status": "ok", "version": "x"}), Reply(200, {"memory_id": "m"})]
    with Svc(fake.url) as client:
        client.status.health()
        client.memories.update("m", content="x")
    assert all("idempotency-key" not in r["headers"] for r in fake.requests)
    assert [r["method"] for r in fake.requests] == ["GET", "PATCH"]


def test_retries_are_bounded(fake: FakeServer) -> None:
    fake.script = [Reply(429, problem(429, "rate-limited"), {"retry-after": "0"}) for _ in range(5)]
    with Svc(fake.url, max_retries=2) as client:
        with pytest.raises(svc.RateLimitedError) as caught:
            client.usage.get()
    assert len(fake.requests) == 3
    assert caught.value.retry_after == 0 and caught.value.slug == "rate-limited"


def test_a_retry_after_longer_than_max_retry_delay_is_raised_at_once(fake: FakeServer) -> None:
    fake.script = [Reply(429, problem(429, "rate-limited"), {"retry-after": "120"})]
    with Svc(fake.url, max_retry_delay=10) as client:
        with pytest.raises(svc.RateLimitedError) as caught:
            client.usage.get()
    assert caught.value.retry_after == 120 and len(fake.requests) == 1


def test_budget_exceeded_is_never_retried(fake: FakeServer) -> None:
    fake.script = [
        Reply(429, problem(429, "budget-exceeded"), {"retry-after": "0"}),
        Reply(201, STORED),
    ]
    with Svc(fake.url) as client:
        with pytest.raises(svc.BudgetExceededError):
            client.memories.store(agent_id="a", content="c")
    assert len(fake.requests) == 1


def test_an_in_flight_key_is_waited_out(fake: FakeServer) -> None:
    fake.script = [
        Reply(409, problem(409, "idempotency-key-in-flight"), {"retry-after": "0"}),
        Reply(201, STORED),
    ]
    with Svc(fake.url) as client:
        assert client.memories.store(agent_id="a", content="c") == STORED
    assert (
        fake.requests[0]["headers"]["idempotency-key"]
        == fake.requests[1]["headers"]["idempotency-key"]
    )


def test_a_dropped_connection_is_retried_for_a_post_under_the_same_key(fake: FakeServer) -> None:
    fake.script = [Reply(drop=True), Reply(201, STORED)]
    with Svc(fake.url) as client:
        assert client.memories.store(agent_id="a", content="c") == STORED
    assert len(fake.requests) == 2
    assert (
        fake.requests[0]["headers"]["idempotency-key"]
        == fake.requests[1]["headers"]["idempotency-key"]
    )


def test_a_timeout_raises_and_is_not_retried(fake: FakeServer) -> None:
    fake.script = [Reply(201, STORED, delay=1.5), Reply(201, STORED)]
    with Svc(fake.url, timeout=0.3) as client:
        with pytest.raises(svc.TimeoutError):
            client.memories.store(agent_id="a", content="c")
    assert len(fake.requests) == 1


def test_a_per_call_timeout_overrides_the_client_one(fake: FakeServer) -> None:
    fake.script = [Reply(200, {"today": {}}, delay=1.0)]
    with Svc(fake.url, timeout=30) as client:
        with pytest.raises(TimeoutError):  # also the built-in TimeoutError
            client.usage.get(timeout=0.2)


def test_a_non_problem_answer_is_still_typed(fake: FakeServer) -> None:
    fake.script = [Reply(404, "<html>nope</html>")]
    with Svc(fake.url) as client:
        with pytest.raises(svc.NotFoundError) as caught:
            client.usage.get()
    assert caught.value.type == "about:blank" and "nope" in caught.value.detail


def test_a_failed_job_raises_job_failed(fake: FakeServer) -> None:
    fake.script = [
        Reply(202, {"job_id": "job_1", "state": "queued"}),
        Reply(200, {"job_id": "job_1", "state": "running"}),
        Reply(200, {"job_id": "job_1", "state": "failed", "error": "boom"}),
    ]
    with Svc(fake.url) as client:
        job = client.forge.ingest(agent_id="a", text="t")
        with pytest.raises(svc.JobFailedError) as caught:
            job.wait(interval=0.01)
    assert caught.value.job["error"] == "boom"
    assert [r["path"] for r in fake.requests[1:]] == ["/v1/ingest/job_1"] * 2


def test_the_async_client_retries_with_the_same_key(fake: FakeServer) -> None:
    fake.script = [
        Reply(429, problem(429, "rate-limited"), {"retry-after": "0"}),
        Reply(201, STORED),
    ]

    async def run() -> None:
        async with AsyncSvc(fake.url) as client:
            assert await client.memories.store(agent_id="a", content="c") == STORED
            fake.script = [Reply(200, {}, delay=1.0)]
            with pytest.raises(svc.TimeoutError):
                await client.usage.get(timeout=0.2)

    asyncio.run(run())
    assert (
        fake.requests[0]["headers"]["idempotency-key"]
        == fake.requests[1]["headers"]["idempotency-key"]
    )
