"""Forge routes: ingest, distill and refine jobs with wait(), datasets, graph, feedback,
certificates, export."""

from __future__ import annotations

import pytest

import svc
from svc import Svc


def test_ingest_job_wait_returns_the_final_status(client: Svc, agent: str) -> None:
    job = client.forge.ingest(agent_id=agent, text="The staging database is restored every Sunday.")
    assert job.accepted is not None and job.accepted["job_id"] == job.id
    done = job.wait(wait_timeout=120)
    assert done["state"] == "succeeded" and len(done["memory_ids"]) == 1
    recalled = client.memories.recall(agent_id=agent, query="staging database", strategy="LEXICAL")
    assert [r["memory_id"] for r in recalled["results"]] == done["memory_ids"]
    assert client.forge.ingest_job(job.id).status()["state"] == "succeeded"


def test_ingest_file_and_loaders(client: Svc, agent: str) -> None:
    assert client.forge.loaders()["loaders"]
    job = client.forge.ingest_file(
        agent, b"# Runbook\n\nRestart the queue with svc worker.\n", filename="runbook.md"
    )
    done = job.wait(wait_timeout=120)
    assert done["state"] == "succeeded" and done["memory_ids"]


def test_distill_then_graph(client: Svc, agent: str) -> None:
    stored = client.memories.store(agent_id=agent, content="Alice works at Acme Corp in Berlin.")
    done = client.forge.distill(agent_id=agent, memory_ids=[stored["memory_id"]]).wait(
        wait_timeout=120
    )
    assert done["state"] == "succeeded"
    graph = client.graph.data(agent_id=agent)
    assert isinstance(graph["nodes"], list) and isinstance(graph["edges"], list)
    assert isinstance(client.graph.relations(), dict)


def test_refine_job(client: Svc, agent: str) -> None:
    client.memories.store(agent_id=agent, content="Bob lives in Paris.")
    done = client.forge.refine(agent_id=agent, dry_run=True).wait(wait_timeout=120)
    assert done["state"] == "succeeded"


def test_datasets_and_feedback(client: Svc, agent: str) -> None:
    dataset = client.forge.datasets.create(name=f"ds-{agent}")
    assert client.forge.datasets.get(dataset["dataset_id"])["name"] == f"ds-{agent}"
    names = [d["name"] for d in client.forge.datasets.list(limit=200)["items"]]
    assert f"ds-{agent}" in names
    client.forge.datasets.delete(dataset["dataset_id"])
    stored = client.memories.store(agent_id=agent, content="feedback target")
    assert client.forge.feedback(signal=1, memory_id=stored["memory_id"])
    with pytest.raises(svc.ValidationError) as caught:
        client.forge.feedback(signal=7, memory_id=stored["memory_id"])
    assert caught.value.field == "/signal"


def test_a_forget_certificate_is_readable(client: Svc, agent: str) -> None:
    stored = client.memories.store(agent_id=agent, content="to be forgotten with a proof")
    forgotten = client.memories.forget(memory_id=stored["memory_id"])
    assert forgotten.get("cert_id")
    certificate = client.certificates.get(forgotten["cert_id"])
    assert certificate["cert_id"] == forgotten["cert_id"]
    assert client.certificates.keys()["keys"]


def test_export_streams_the_chained_records(client: Svc, agent: str) -> None:
    stored = client.memories.store(agent_id=agent, content="exported memory")
    records = list(client.export.records())
    assert records[0]["k"] == "header" and records[-1]["k"] == "end"
    assert records[-1]["d"]["lines"] == len(records)
    assert stored["memory_id"] in [r["d"].get("memory_id") for r in records]
    lines = list(client.export.lines())
    assert len(lines) == len(records) and all(line.startswith('{"k":') for line in lines)
