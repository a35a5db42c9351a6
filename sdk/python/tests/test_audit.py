"""Audit rows and the hash chain, recomputed by the SDK against what the server wrote."""

from __future__ import annotations

import copy

import svc
from svc import Svc

from .conftest import eventually


def _audited(client: Svc, memory_id: str) -> list:
    return [r for r in client.audit.list(operation="store") if memory_id in r["target_ids"]]


def test_the_chain_verifies_and_a_changed_row_breaks_it(client: Svc, agent: str) -> None:
    stored = client.memories.store(
        agent_id=agent,
        content="audited: the café opens at 7 ☕",
        metadata={"ratio": 0.1, "big": 1e21, "tiny": 1.5e-7, "é": [1, 2.5]},
    )
    rows = eventually(lambda: _audited(client, stored["memory_id"]), "the store's audit row")
    assert rows[0]["agent_id"] == agent
    verdict = client.audit.verify_chain()
    assert verdict.ok and verdict.rows >= rows[0]["seq"]
    assert verdict.head is not None and verdict.head["seq"] == verdict.rows

    org_id = client.budgets.get()["org_id"]
    chain = list(client.audit.list())
    assert svc.verify_rows(org_id, chain).ok
    target = next(i for i, r in enumerate(chain) if r["seq"] == rows[0]["seq"])
    tampered = copy.deepcopy(chain)
    tampered[target]["agent_id"] = "someone-else"
    broken = svc.verify_rows(org_id, tampered)
    assert not broken.ok and broken.first_broken_seq == rows[0]["seq"]
    assert "hash" in (broken.reason or "")
    assert not svc.verify_rows("org_other", chain).ok


def test_audit_pages_follow_the_cursor(client: Svc, agent: str) -> None:
    for i in range(3):
        client.memories.store(agent_id=agent, content=f"paged {i}")
    eventually(lambda: len([r for r in client.audit.list(agent_id=agent)]) >= 3, "three rows")
    page = client.audit.page(agent_id=agent, limit=1)
    assert len(page["items"]) == 1 and page["next_cursor"]
    seqs = [r["seq"] for r in client.audit.list(agent_id=agent, limit=1)]
    assert len(seqs) >= 3 and seqs == sorted(seqs)


def test_canonical_json_matches_the_published_rule() -> None:
    assert svc.canonical_json({"b": 1, "a": [True, None, 1.5, 1e21, 1e-7], "é": "ü\n"}) == (
        '{"a":[true,null,1.5,1e+21,1e-7],"b":1,"é":"ü\\n"}'
    )
    # UTF-16 code units order U+1F600 (D83D DE00) before U+FF5E; code points would not
    assert svc.canonical_json({"～": 2, "😀": 1}) == '{"😀":1,"～":2}'
