"""Memories, conversations, sessions, keys and the account routes against the real server."""

from __future__ import annotations

import pytest

import svc
from svc import Svc


def test_store_recall_forget_round_trip(client: Svc, agent: str) -> None:
    stored = client.memories.store(
        agent_id=agent, content="The deploy script lives in ops/deploy.sh"
    )
    assert stored["memory_id"].startswith("mem_") and stored["version"] == 1
    recalled = client.memories.recall(agent_id=agent, query="deploy script", strategy="LEXICAL")
    assert [r["memory_id"] for r in recalled["results"]] == [stored["memory_id"]]
    assert client.memories.get(stored["memory_id"])["content"] == stored["content"]
    forgotten = client.memories.forget(memory_id=stored["memory_id"])
    assert forgotten["forgotten"] == [stored["memory_id"]]
    after = client.memories.recall(agent_id=agent, query="deploy script", strategy="LEXICAL")
    assert after["results"] == []
    with pytest.raises(svc.GoneError):
        client.memories.get(stored["memory_id"])


def test_update_writes_a_version_and_history_keeps_both(client: Svc, agent: str) -> None:
    stored = client.memories.store(agent_id=agent, content="the office is on floor 2")
    updated = client.memories.update(stored["memory_id"], content="the office is on floor 5")
    assert updated["version"] == 2
    history = client.memories.history(stored["memory_id"])
    contents = [v["content"] for v in history["versions"]]
    assert contents == ["the office is on floor 2", "the office is on floor 5"]


def test_batch_stores_every_memory(client: Svc, agent: str) -> None:
    batch = client.memories.batch(
        memories=[
            {"agent_id": agent, "content": "alpha likes green tea"},
            {"agent_id": agent, "content": "beta prefers coffee"},
        ]
    )
    assert batch["count"] == 2
    ids = [m["memory_id"] for m in batch["memories"]]
    recalled = client.memories.recall(agent_id=agent, query="coffee", strategy="LEXICAL")
    assert [r["memory_id"] for r in recalled["results"]] == [ids[1]]


def test_recall_stream_yields_results_then_the_summary(client: Svc, agent: str) -> None:
    first = client.memories.store(agent_id=agent, content="order 1234 shipped on Monday")
    client.memories.store(agent_id=agent, content="order 1235 shipped on Tuesday")
    events = list(
        client.memories.recall_stream(agent_id=agent, query="order shipped", strategy="LEXICAL")
    )
    assert [e.type for e in events] == ["result", "result", "summary"]
    assert [e.result["rank"] for e in events[:2] if e.result] == [1, 2]
    assert first["memory_id"] in {e.result["memory_id"] for e in events[:2] if e.result}
    assert events[-1].summary is not None and events[-1].summary["count"] == 2


def test_leaving_the_stream_early_is_clean(client: Svc, agent: str) -> None:
    for i in range(3):
        client.memories.store(agent_id=agent, content=f"note {i} about the garden")
    stream = client.memories.recall_stream(agent_id=agent, query="garden", strategy="LEXICAL")
    first = next(iter(stream))
    stream.close()  # type: ignore[attr-defined]
    assert first.type == "result"
    assert client.status.health()["status"] == "ok"


def test_a_stream_error_before_it_opens_is_the_typed_error(client: Svc, agent: str) -> None:
    with pytest.raises(svc.ValidationError) as caught:
        list(client.memories.recall_stream(agent_id=agent, query="x", top_k=0))
    assert caught.value.field == "/top_k"


def test_not_found_is_typed_with_its_slug(client: Svc) -> None:
    with pytest.raises(svc.NotFoundError) as caught:
        client.memories.get("mem_01ARZ3NDEKTSV4RRFFQ69G5FAV")
    error = caught.value
    assert (error.status, error.slug) == (404, "not-found")
    assert isinstance(error, svc.ClientError) and error.request_id


def test_validation_error_names_the_field(client: Svc, agent: str) -> None:
    with pytest.raises(svc.ValidationError) as caught:
        client.memories.store(agent_id=agent, content="")
    assert caught.value.status == 422
    assert caught.value.slug == "validation-failed"
    assert caught.value.field == "/content"


def test_a_bad_key_is_unauthenticated(base_url: str) -> None:
    with Svc(base_url, "svc_sk_" + "x" * 43) as stranger:
        with pytest.raises(svc.UnauthenticatedError):
            stranger.usage.get()


def test_conversations_and_sessions(client: Svc, agent: str) -> None:
    conversation = client.conversations.open(agent_id=agent, title="support chat")
    cid = conversation["conversation_id"]
    client.conversations.append_turn(cid, role="user", content="my printer is jammed")
    client.conversations.append_turn(cid, role="assistant", content="open tray 2")
    turns = client.conversations.turns(cid, limit=10)
    assert [t["content"] for t in turns["items"]] == ["my printer is jammed", "open tray 2"]
    assert client.conversations.get(cid)["conversation_id"] == cid
    client.conversations.delete(cid)
    assert client.conversations.get(cid)["state"] == "deleted"
    with pytest.raises(svc.GoneError):
        client.conversations.append_turn(cid, role="user", content="still there?")
    with pytest.raises(svc.NotFoundError):
        client.conversations.get("conv_01ARZ3NDEKTSV4RRFFQ69G5FAV")
    session = client.sessions.start(agent_id=agent)
    assert client.sessions.get(session["session_id"])["session_id"] == session["session_id"]
    assert client.sessions.end(session["session_id"])["ended_at"]
    with pytest.raises(svc.ConflictError):
        client.sessions.end(session["session_id"])


def test_keys_usage_budgets_limits(client: Svc, base_url: str) -> None:
    created = client.keys.create(name="py-sdk-test", scopes=["memories:read"])
    assert created["key"].startswith("svc_sk_")
    listed = client.keys.list(limit=200)
    assert created["key_id"] in [k["key_id"] for k in listed["items"]]
    with Svc(base_url, created["key"]) as reader:
        with pytest.raises(svc.ForbiddenError) as caught:
            reader.memories.store(agent_id="x", content="y")
        assert caught.value.slug == "insufficient-scope"
    client.keys.revoke(created["key_id"])
    with Svc(base_url, created["key"]) as revoked:
        with pytest.raises(svc.UnauthenticatedError):
            revoked.usage.get()
    assert "today" in client.usage.get()
    assert "limit" in client.keys.limits()
    budgets = client.budgets.put(daily_tokens=1_000_000)
    assert budgets["overrides"]["daily_tokens"] == 1_000_000
    client.budgets.put(daily_tokens=None)
    assert client.budgets.get()["org_id"].startswith("org_")


def test_list_walks_pages_with_metadata_filters_and_agents_counts(client: Svc, agent: str) -> None:
    for i in range(5):
        client.memories.store(agent_id=agent, content=f"listed {i}", metadata={"parity": i % 2})
    contents = [m["content"] for m in client.memories.list(agent_id=agent, limit=2)]
    assert contents == ["listed 4", "listed 3", "listed 2", "listed 1", "listed 0"]
    even = client.memories.page(agent_id=agent, metadata={"parity": 0}, order="asc")
    assert [m["content"] for m in even["items"]] == ["listed 0", "listed 2", "listed 4"]
    row = next(a for a in client.agents.list() if a["agent_id"] == agent)
    assert (row["memories"], row["forgotten"], row["has_graph"]) == (5, 0, False)
    with pytest.raises(svc.ValidationError):
        client.memories.page(agent_id=agent, order="sideways")  # type: ignore[typeddict-item]
