"""The typed shapes of svc's JSON (generated in svc/_models.py), plus short names for some."""

from ._models import *  # noqa: F401,F403
from ._models import (
    GetAuditResponseItemsItem,
    GetMemoriesByMemoryIdResponse,
    PostMemoriesBody,
    PostMemoriesRecallBody,
    PostMemoriesRecallResponse,
    PostMemoriesRecallResponseResultsItem,
    Problem,
)

Memory = GetMemoriesByMemoryIdResponse
StoreMemory = PostMemoriesBody
RecallRequest = PostMemoriesRecallBody
RecallResponse = PostMemoriesRecallResponse
RecallResult = PostMemoriesRecallResponseResultsItem
AuditRow = GetAuditResponseItemsItem

__all__ = [
    "AuditRow",
    "Memory",
    "Problem",
    "RecallRequest",
    "RecallResponse",
    "RecallResult",
    "StoreMemory",
]
