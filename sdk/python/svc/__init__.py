"""svc: the Python client of the svc memory service (sync ``Svc`` and asyncio ``AsyncSvc``)."""

from ._async_client import AsyncSvc
from ._audit import ChainVerdict, canonical_json, row_hash, verify_rows
from ._client import Svc
from ._jobs import AsyncJob, SyncJob
from ._sse import RecallEvent
from .errors import (
    BadRequestError,
    BudgetExceededError,
    ClientError,
    ConflictError,
    ForbiddenError,
    GoneError,
    IdempotencyKeyInFlightError,
    IdempotencyKeyReusedError,
    InternalError,
    JobFailedError,
    NotFoundError,
    PayloadTooLargeError,
    RateLimitedError,
    ServerError,
    ServiceUnavailableError,
    StrategyUnavailableError,
    SvcError,
    TimeoutError,
    UnauthenticatedError,
    UnsupportedMediaTypeError,
    ValidationError,
)

__version__ = "0.1.0"

__all__ = [
    "AsyncJob",
    "AsyncSvc",
    "BadRequestError",
    "BudgetExceededError",
    "ChainVerdict",
    "ClientError",
    "ConflictError",
    "ForbiddenError",
    "GoneError",
    "IdempotencyKeyInFlightError",
    "IdempotencyKeyReusedError",
    "InternalError",
    "JobFailedError",
    "NotFoundError",
    "PayloadTooLargeError",
    "RateLimitedError",
    "RecallEvent",
    "ServerError",
    "ServiceUnavailableError",
    "StrategyUnavailableError",
    "Svc",
    "SvcError",
    "SyncJob",
    "TimeoutError",
    "UnauthenticatedError",
    "UnsupportedMediaTypeError",
    "ValidationError",
    "canonical_json",
    "row_hash",
    "verify_rows",
]
