# The blocking client: one namespace per resource family, each method one route of the public API.
# scripts/sdk-python-types.ts derives svc/_async_client.py from this file (a method marked
# "plain def" stays a function there: it returns an iterator or a job handle without a request).
from __future__ import annotations

from typing import TYPE_CHECKING, Any, Dict, Iterator, Mapping, Optional, Union
from urllib.parse import quote

import httpx

from . import _models as m
from ._audit import ChainVerdict, sync_audit_rows, sync_verify_rows
from ._jobs import SyncJob
from ._pages import list_query, sync_pages
from ._sse import RecallEvent, sync_json_lines, sync_recall_events
from ._transport import (
    DEFAULT_MAX_RETRIES,
    DEFAULT_MAX_RETRY_DELAY,
    DEFAULT_TIMEOUT,
    SyncLifecycle,
    SyncTransport,
    _Settings,
)

if TYPE_CHECKING:
    from typing_extensions import Unpack

Key = Optional[str]
Secs = Optional[float]


def _id(value: str) -> str:
    return quote(value, safe="")


class Memories:
    def __init__(self, t: SyncTransport) -> None:
        self._t = t

    def store(self, *, idempotency_key: Key = None, timeout: Secs = None,
              **body: Unpack[m.PostMemoriesBody]) -> m.PostMemoriesResponse:
        """Stores a memory (its version 1)."""
        return self._t.post("/v1/memories", body, idempotency_key, timeout)

    def batch(self, *, idempotency_key: Key = None, timeout: Secs = None,
              **body: Unpack[m.PostMemoriesBatchBody]) -> m.PostMemoriesBatchResponse:
        """Stores several memories in one transaction."""
        return self._t.post("/v1/memories/batch", body, idempotency_key, timeout)

    def page(self, *, metadata: Optional[Mapping[str, Any]] = None, timeout: Secs = None,
             **query: Unpack[m.GetMemoriesQuery]) -> m.GetMemoriesResponse:
        """One page of memories, newest first; `metadata` holds equality filters by key."""
        return self._t.get("/v1/memories", list_query(query, metadata), timeout)

    def list(self, *, metadata: Optional[Mapping[str, Any]] = None,  # plain def
             timeout: Secs = None,
             **query: Unpack[m.GetMemoriesQuery]) -> Iterator[m.GetMemoriesResponseItemsItem]:
        """Every matching memory, fetching the next page only when the loop reaches it."""
        return sync_pages(self._t, "/v1/memories", list_query(query, metadata), timeout)

    def get(self, memory_id: str, *, timeout: Secs = None) -> m.GetMemoriesByMemoryIdResponse:
        return self._t.get(f"/v1/memories/{_id(memory_id)}", None, timeout)

    def history(self, memory_id: str, *,
                timeout: Secs = None) -> m.GetMemoriesByMemoryIdHistoryResponse:
        """Every version of the memory, oldest first."""
        return self._t.get(f"/v1/memories/{_id(memory_id)}/history", None, timeout)

    def update(self, memory_id: str, *, timeout: Secs = None,
               **body: Unpack[m.PatchMemoriesByMemoryIdBody]) -> m.PatchMemoriesByMemoryIdResponse:
        """Writes the next version."""
        return self._t.patch(f"/v1/memories/{_id(memory_id)}", body, timeout)

    def forget(self, *, idempotency_key: Key = None, timeout: Secs = None,
               **body: Unpack[m.PostMemoriesForgetBody]) -> m.PostMemoriesForgetResponse:
        """Forgets one memory, several, or an agent's whole memory (and what derives from it)."""
        return self._t.post("/v1/memories/forget", body, idempotency_key, timeout)

    def recall(self, *, idempotency_key: Key = None, timeout: Secs = None,
               **body: Unpack[m.PostMemoriesRecallBody]) -> m.PostMemoriesRecallResponse:
        return self._t.post("/v1/memories/recall", body, idempotency_key, timeout)

    def recall_stream(self, *, timeout: Secs = None,  # plain def
                      **body: Unpack[m.PostMemoriesRecallStreamBody]) -> Iterator[RecallEvent]:
        """Each result as it arrives, then the summary; an error event raises the typed error.
        Leaving the loop early closes the request, so the server stops its work."""
        lines = self._t.lines("POST", "/v1/memories/recall/stream", body=body,
                              accept="text/event-stream", timeout=timeout)
        return sync_recall_events(lines)


class Agents:
    def __init__(self, t: SyncTransport) -> None:
        self._t = t

    def page(self, *, timeout: Secs = None,
             **query: Unpack[m.GetAgentsQuery]) -> m.GetAgentsResponse:
        return self._t.get("/v1/agents", query, timeout)

    def list(self, *, timeout: Secs = None  # plain def
             ) -> Iterator[m.GetAgentsResponseItemsItem]:
        """Every agent in agent_id order, with counts, activity and whether a graph exists."""
        return sync_pages(self._t, "/v1/agents", {"limit": 200}, timeout)


class Conversations:
    def __init__(self, t: SyncTransport) -> None:
        self._t = t

    def open(self, *, idempotency_key: Key = None, timeout: Secs = None,
             **body: Unpack[m.PostConversationsBody]) -> m.PostConversationsResponse:
        return self._t.post("/v1/conversations", body, idempotency_key, timeout)

    def get(self, conversation_id: str, *,
            timeout: Secs = None) -> m.GetConversationsByConversationIdResponse:
        return self._t.get(f"/v1/conversations/{_id(conversation_id)}", None, timeout)

    def delete(self, conversation_id: str, *,
               timeout: Secs = None) -> m.DeleteConversationsByConversationIdResponse:
        return self._t.delete(f"/v1/conversations/{_id(conversation_id)}", timeout)

    def append_turn(
        self, conversation_id: str, *, idempotency_key: Key = None, timeout: Secs = None,
        **body: Unpack[m.PostConversationsByConversationIdTurnsBody],
    ) -> m.PostConversationsByConversationIdTurnsResponse:
        path = f"/v1/conversations/{_id(conversation_id)}/turns"
        return self._t.post(path, body, idempotency_key, timeout)

    def turns(
        self, conversation_id: str, *, timeout: Secs = None,
        **query: Unpack[m.GetConversationsByConversationIdTurnsQuery],
    ) -> m.GetConversationsByConversationIdTurnsResponse:
        return self._t.get(f"/v1/conversations/{_id(conversation_id)}/turns", query, timeout)


class Sessions:
    def __init__(self, t: SyncTransport) -> None:
        self._t = t

    def start(self, *, idempotency_key: Key = None, timeout: Secs = None,
              **body: Unpack[m.PostSessionsBody]) -> m.PostSessionsResponse:
        return self._t.post("/v1/sessions", body, idempotency_key, timeout)

    def get(self, session_id: str, *,
            timeout: Secs = None) -> m.GetSessionsBySessionIdResponse:
        return self._t.get(f"/v1/sessions/{_id(session_id)}", None, timeout)

    def end(self, session_id: str, *, idempotency_key: Key = None,
            timeout: Secs = None) -> m.PostSessionsBySessionIdEndResponse:
        path = f"/v1/sessions/{_id(session_id)}/end"
        return self._t.post(path, None, idempotency_key, timeout)


class Keys:
    def __init__(self, t: SyncTransport) -> None:
        self._t = t

    def create(self, *, idempotency_key: Key = None, timeout: Secs = None,
               **body: Unpack[m.PostApiKeysBody]) -> m.PostApiKeysResponse:
        """A new API key of the caller's tenant; ``key`` (the plaintext) is returned only here."""
        return self._t.post("/v1/api-keys", body, idempotency_key, timeout)

    def list(self, *, timeout: Secs = None,
             **query: Unpack[m.GetApiKeysQuery]) -> m.GetApiKeysResponse:
        return self._t.get("/v1/api-keys", query, timeout)

    def revoke(self, key_id: str, *, timeout: Secs = None) -> m.DeleteApiKeysByKeyIdResponse:
        return self._t.delete(f"/v1/api-keys/{_id(key_id)}", timeout)

    def limits(self, *, timeout: Secs = None) -> m.GetLimitsResponse:
        """The rate limits and caps that apply to the calling key and its tenant."""
        return self._t.get("/v1/limits", None, timeout)


class Usage:
    def __init__(self, t: SyncTransport) -> None:
        self._t = t

    def get(self, *, timeout: Secs = None) -> m.GetUsageResponse:
        return self._t.get("/v1/usage", None, timeout)


class Budgets:
    def __init__(self, t: SyncTransport) -> None:
        self._t = t

    def get(self, *, timeout: Secs = None) -> m.GetTenantsMeBudgetsResponse:
        return self._t.get("/v1/tenants/me/budgets", None, timeout)

    def put(self, *, timeout: Secs = None,
            **body: Unpack[m.PutTenantsMeBudgetsBody]) -> m.PutTenantsMeBudgetsResponse:
        return self._t.put("/v1/tenants/me/budgets", body, timeout)


class Audit:
    def __init__(self, t: SyncTransport) -> None:
        self._t = t

    def page(self, *, timeout: Secs = None,
             **query: Unpack[m.GetAuditQuery]) -> m.GetAuditResponse:
        return self._t.get("/v1/audit", query, timeout)

    def list(self, *, timeout: Secs = None,  # plain def
             **query: Unpack[m.GetAuditQuery]) -> Iterator[m.GetAuditResponseItemsItem]:
        """Every matching row in seq order, fetching the next page only when the loop reaches it."""
        return sync_audit_rows(self._t, dict(query), timeout)

    def verify_chain(self, *, org_id: Key = None, timeout: Secs = None) -> ChainVerdict:
        """Recomputes the tenant's whole hash chain from seq 1 (docs/audit.md). The org id comes
        from GET /v1/tenants/me/budgets unless given."""
        org = org_id or (self._t.get("/v1/tenants/me/budgets", None, timeout))["org_id"]
        return sync_verify_rows(org, sync_audit_rows(self._t, {"limit": 200}, timeout))


class Graph:
    def __init__(self, t: SyncTransport) -> None:
        self._t = t

    def data(self, *, timeout: Secs = None,
             **query: Unpack[m.GetGraphDataQuery]) -> m.GetGraphDataResponse:
        """Nodes and edges of an agent's graph (what the /graph viewer draws)."""
        return self._t.get("/v1/graph/data", query, timeout)

    def relations(self, *, timeout: Secs = None) -> m.GetGraphRelationsResponse:
        return self._t.get("/v1/graph/relations", None, timeout)

    def set_relation(self, *, timeout: Secs = None,
                     **body: Unpack[m.PutGraphRelationsBody]) -> m.PutGraphRelationsResponse:
        return self._t.put("/v1/graph/relations", body, timeout)


class Datasets:
    def __init__(self, t: SyncTransport) -> None:
        self._t = t

    def create(self, *, idempotency_key: Key = None, timeout: Secs = None,
               **body: Unpack[m.PostDatasetsBody]) -> m.PostDatasetsResponse:
        return self._t.post("/v1/datasets", body, idempotency_key, timeout)

    def list(self, *, timeout: Secs = None,
             **query: Unpack[m.GetDatasetsQuery]) -> m.GetDatasetsResponse:
        return self._t.get("/v1/datasets", query, timeout)

    def get(self, dataset_id: str, *,
            timeout: Secs = None) -> m.GetDatasetsByDatasetIdResponse:
        return self._t.get(f"/v1/datasets/{_id(dataset_id)}", None, timeout)

    def delete(self, dataset_id: str, *,
               timeout: Secs = None) -> m.DeleteDatasetsByDatasetIdResponse:
        return self._t.delete(f"/v1/datasets/{_id(dataset_id)}", timeout)


class Webhooks:
    """Outbound webhook endpoints (admin scope); ``secret`` is returned by create and rotate only."""

    def __init__(self, t: SyncTransport) -> None:
        self._t = t

    def create(self, *, idempotency_key: Key = None, timeout: Secs = None,
               **body: Unpack[m.PostWebhooksBody]) -> m.PostWebhooksResponse:
        return self._t.post("/v1/webhooks", body, idempotency_key, timeout)

    def list(self, *, timeout: Secs = None,
             **query: Unpack[m.GetWebhooksQuery]) -> m.GetWebhooksResponse:
        return self._t.get("/v1/webhooks", query, timeout)

    def get(self, endpoint_id: str, *,
            timeout: Secs = None) -> m.GetWebhooksByEndpointIdResponse:
        return self._t.get(f"/v1/webhooks/{_id(endpoint_id)}", None, timeout)

    def delete(self, endpoint_id: str, *,
               timeout: Secs = None) -> m.DeleteWebhooksByEndpointIdResponse:
        return self._t.delete(f"/v1/webhooks/{_id(endpoint_id)}", timeout)

    def rotate_secret(self, endpoint_id: str, *, idempotency_key: Key = None,
                      timeout: Secs = None) -> m.PostWebhooksByEndpointIdRotateSecretResponse:
        path = f"/v1/webhooks/{_id(endpoint_id)}/rotate-secret"
        return self._t.post(path, None, idempotency_key, timeout)

    def deliveries(self, endpoint_id: str, *, timeout: Secs = None,
                   **query: Unpack[m.GetWebhooksByEndpointIdDeliveriesQuery]
                   ) -> m.GetWebhooksByEndpointIdDeliveriesResponse:
        return self._t.get(f"/v1/webhooks/{_id(endpoint_id)}/deliveries", query, timeout)


IngestJob = SyncJob[m.GetIngestByJobIdResponse]
DistillJob = SyncJob[m.GetDistillByJobIdResponse]
RefineJob = SyncJob[m.GetRefineByJobIdResponse]


class Forge:
    """Ingest, distill and refine start jobs: each returns a handle whose ``wait()`` polls."""

    def __init__(self, t: SyncTransport) -> None:
        self._t = t
        self.datasets = Datasets(t)

    def ingest(self, *, idempotency_key: Key = None, timeout: Secs = None,
               **body: Unpack[m.PostIngestBody]) -> IngestJob:
        """Ingests text or a URL into memories."""
        accepted = self._t.post("/v1/ingest", body, idempotency_key, timeout)
        return self.ingest_job(accepted["job_id"], accepted)

    def ingest_file(self, agent_id: str, file: Union[bytes, Any], *,
                    filename: str = "document", dataset_id: Key = None,
                    idempotency_key: Key = None, timeout: Secs = None) -> IngestJob:
        """Uploads a document (bytes or a binary file object); its format is recognised from its
        bytes (see ``loaders()``)."""
        content = file if isinstance(file, bytes) else file.read()
        form = {"agent_id": agent_id, **({"dataset_id": dataset_id} if dataset_id else {})}
        accepted = self._t.call("POST", "/v1/ingest/file", body=form,
                                files={"file": (filename, content)},
                                idempotency_key=idempotency_key, timeout=timeout)
        return self.ingest_job(accepted["job_id"], accepted)

    def ingest_job(self, job_id: str, accepted: Any = None) -> IngestJob:  # plain def
        return SyncJob(self._t, f"/v1/ingest/{_id(job_id)}", job_id, accepted)

    def loaders(self, *, timeout: Secs = None) -> m.GetIngestLoadersResponse:
        return self._t.get("/v1/ingest/loaders", None, timeout)

    def distill(self, *, idempotency_key: Key = None, timeout: Secs = None,
                **body: Unpack[m.PostDistillBody]) -> DistillJob:
        """Extracts graph facts from memories."""
        accepted = self._t.post("/v1/distill", body, idempotency_key, timeout)
        return self.distill_job(accepted["job_id"], accepted)

    def distill_job(self, job_id: str, accepted: Any = None) -> DistillJob:  # plain def
        return SyncJob(self._t, f"/v1/distill/{_id(job_id)}", job_id, accepted)

    def refine(self, *, idempotency_key: Key = None, timeout: Secs = None,
               **body: Unpack[m.PostRefineBody]) -> RefineJob:
        """Merges duplicates, infers and summarises over the graph."""
        accepted = self._t.post("/v1/refine", body, idempotency_key, timeout)
        return self.refine_job(accepted["job_id"], accepted)

    def refine_job(self, job_id: str, accepted: Any = None) -> RefineJob:  # plain def
        return SyncJob(self._t, f"/v1/refine/{_id(job_id)}", job_id, accepted)

    def feedback(self, *, idempotency_key: Key = None, timeout: Secs = None,
                 **body: Unpack[m.PostFeedbackBody]) -> m.PostFeedbackResponse:
        return self._t.post("/v1/feedback", body, idempotency_key, timeout)


ErasureJob = SyncJob[m.GetErasuresByErasureIdResponse]


class Erasures:
    """Subject erasure (docs/erasure.md): content removed, not soft-deleted; admin key only."""

    def __init__(self, t: SyncTransport) -> None:
        self._t = t

    def request(self, *, idempotency_key: Key = None, timeout: Secs = None,
                **body: Unpack[m.PostErasuresBody]) -> ErasureJob:
        """Queues the erasure of an agent, or of one subject named in metadata."""
        accepted = self._t.post("/v1/erasures", body, idempotency_key, timeout)
        return self.job(accepted["erasure_id"], accepted)

    def job(self, erasure_id: str, accepted: Any = None) -> ErasureJob:  # plain def
        return SyncJob(self._t, f"/v1/erasures/{_id(erasure_id)}", erasure_id, accepted)


class Certificates:
    """Forget certificates (FORGET_PROOF_ENABLED) and the service's public keys to verify them."""

    def __init__(self, t: SyncTransport) -> None:
        self._t = t

    def get(self, cert_id: str, *, timeout: Secs = None) -> m.GetForgetByCertIdResponse:
        return self._t.get(f"/v1/forget/{_id(cert_id)}", None, timeout)

    def keys(self, *, timeout: Secs = None) -> m.GetForgetKeysResponse:
        return self._t.get("/v1/forget/keys", None, timeout)


class Export:
    """The tenant's data as chained NDJSON (docs/export.md); needs a key with the admin scope."""

    def __init__(self, t: SyncTransport) -> None:
        self._t = t

    def lines(self, *, timeout: Secs = None) -> Iterator[str]:  # plain def
        """The exact lines, for ``svc import`` (write each followed by a newline)."""
        return self._t.lines("GET", "/v1/export", accept="application/x-ndjson", timeout=timeout)

    def records(self, *, timeout: Secs = None) -> Iterator[Dict[str, Any]]:  # plain def
        """Each line parsed."""
        return sync_json_lines(self.lines(timeout=timeout))


class AdminBudgets:
    def __init__(self, t: SyncTransport) -> None:
        self._t = t

    def get(self, org_id: str, *, timeout: Secs = None) -> m.GetTenantsByOrgIdBudgetsResponse:
        return self._t.get(f"/v1/tenants/{_id(org_id)}/budgets", None, timeout)

    def put(self, org_id: str, *, timeout: Secs = None,
            **body: Unpack[m.PutTenantsByOrgIdBudgetsBody]) -> m.PutTenantsByOrgIdBudgetsResponse:
        return self._t.put(f"/v1/tenants/{_id(org_id)}/budgets", body, timeout)


class Admin:
    """Superadmin routes: construct the client with the superadmin key (SUPERADMIN_API_KEY)."""

    def __init__(self, t: SyncTransport) -> None:
        self.budgets = AdminBudgets(t)


class Status:
    def __init__(self, t: SyncTransport) -> None:
        self._t = t

    def health(self, *, timeout: Secs = None) -> m.GetHealthResponse:
        return self._t.get("/v1/health", None, timeout)

    def ready(self, *, timeout: Secs = None) -> m.GetReadyResponse:
        return self._t.get("/v1/ready", None, timeout)


class Svc(SyncLifecycle):
    """The blocking client of svc.

    ``timeout``: seconds to connect and between bytes of an answer (None waits forever).
    ``max_retries``: how often a 429 rate-limited, 503, or 409 in-flight answer is retried (and a
    POST whose connection dropped), waiting Retry-After; a longer wait than ``max_retry_delay``
    raises at once.
    ``http_client``: your own httpx client (proxies, transports); then closing it is yours.
    """

    def __init__(self, base_url: str, api_key: Key = None, *, timeout: Secs = DEFAULT_TIMEOUT,
                 max_retries: int = DEFAULT_MAX_RETRIES,
                 max_retry_delay: float = DEFAULT_MAX_RETRY_DELAY,
                 headers: Optional[Mapping[str, str]] = None,
                 http_client: Optional[httpx.Client] = None) -> None:
        settings = _Settings(base_url, api_key, timeout, max_retries, max_retry_delay, headers)
        self._t = SyncTransport(settings, http_client)
        self.memories = Memories(self._t)
        self.agents = Agents(self._t)
        self.conversations = Conversations(self._t)
        self.sessions = Sessions(self._t)
        self.keys = Keys(self._t)
        self.webhooks = Webhooks(self._t)
        self.usage = Usage(self._t)
        self.budgets = Budgets(self._t)
        self.audit = Audit(self._t)
        self.graph = Graph(self._t)
        self.forge = Forge(self._t)
        self.certificates = Certificates(self._t)
        self.erasures = Erasures(self._t)
        self.export = Export(self._t)
        self.admin = Admin(self._t)
        self.status = Status(self._t)
