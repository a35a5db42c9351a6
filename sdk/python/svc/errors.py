"""Typed errors from RFC 7807 problem documents: a class per status family, subclasses per slug."""

from __future__ import annotations

import builtins
import email.utils
import time
from typing import Any, Dict, List, Mapping, Optional, Type


class SvcError(Exception):
    """Base of every error for an HTTP problem; ``slug`` is the last segment of its ``type``."""

    def __init__(self, problem: Mapping[str, Any], retry_after: Optional[float] = None) -> None:
        self.problem: Dict[str, Any] = dict(problem)
        self.type: str = str(problem.get("type", "about:blank"))
        self.slug: str = self.type.rsplit("/", 1)[-1]
        self.title: str = str(problem.get("title", ""))
        self.detail: str = str(problem.get("detail", ""))
        self.status: int = int(problem.get("status", 0) or 0)
        self.request_id: Optional[str] = problem.get("request_id")
        #: The server's Retry-After in seconds, when it sent one.
        self.retry_after: Optional[float] = retry_after
        super().__init__(f"{self.status} {self.title}: {self.detail}")


class ClientError(SvcError):
    """A 4xx problem: the request must change to succeed (except 409 in-flight and 429)."""


class ServerError(SvcError):
    """A 5xx problem."""


class BadRequestError(ClientError):
    """400 malformed-request: the body is not JSON, or a header or parameter cannot be parsed."""


class UnauthenticatedError(ClientError):
    """401: no key, or a malformed, unknown or revoked key."""


class ForbiddenError(ClientError):
    """403 forbidden or insufficient-scope."""


class NotFoundError(ClientError):
    """404: the resource is not in your tenant, or the route does not exist (its gate is off)."""


class ConflictError(ClientError):
    """409 conflict or key-limit-reached."""


class IdempotencyKeyInFlightError(ConflictError):
    """409: a request with the same Idempotency-Key is still running; retried automatically."""


class GoneError(ClientError):
    """410: the resource was deleted or forgotten."""


class PayloadTooLargeError(ClientError):
    """413: the body exceeds the server's cap."""


class UnsupportedMediaTypeError(ClientError):
    """415: the Content-Type is not accepted by the route."""


class ValidationError(ClientError):
    """422 validation-failed: ``errors`` names each failing field; ``field`` is the first."""

    def __init__(self, problem: Mapping[str, Any], retry_after: Optional[float] = None) -> None:
        super().__init__(problem, retry_after)
        raw = problem.get("errors")
        self.errors: List[Dict[str, str]] = list(raw) if isinstance(raw, list) else []
        self.field: Optional[str] = self.errors[0].get("path") if self.errors else None


class IdempotencyKeyReusedError(ValidationError):
    """422: the Idempotency-Key was already used for a different request."""


class RateLimitedError(ClientError):
    """429 rate-limited: ``retry_after`` says when the bucket has a token again."""


class BudgetExceededError(RateLimitedError):
    """429 budget-exceeded: the tenant's token budget is spent; never retried (resets in hours)."""


class InternalError(ServerError):
    """500: quote ``request_id`` when reporting it."""


class StrategyUnavailableError(ServerError):
    """501: the pinned recall strategy is not available in this deployment."""


class ServiceUnavailableError(ServerError):
    """503: a dependency is unreachable; retried automatically."""


class TimeoutError(builtins.TimeoutError):
    """The request (or a job's wait) did not finish within its timeout."""


class JobFailedError(Exception):
    """A job ended in a state other than ``succeeded``; ``job`` is its final status."""

    def __init__(self, job: Mapping[str, Any]) -> None:
        self.job: Dict[str, Any] = dict(job)
        reason = f": {job.get('error')}" if job.get("error") else ""
        super().__init__(f"job {job.get('job_id')} ended {job.get('state')}{reason}")


_BY_SLUG: Dict[str, Type[SvcError]] = {
    "budget-exceeded": BudgetExceededError,
    "idempotency-key-in-flight": IdempotencyKeyInFlightError,
    "idempotency-key-reused": IdempotencyKeyReusedError,
}

_BY_STATUS: Dict[int, Type[SvcError]] = {
    400: BadRequestError,
    401: UnauthenticatedError,
    403: ForbiddenError,
    404: NotFoundError,
    409: ConflictError,
    410: GoneError,
    413: PayloadTooLargeError,
    415: UnsupportedMediaTypeError,
    422: ValidationError,
    429: RateLimitedError,
    500: InternalError,
    501: StrategyUnavailableError,
    503: ServiceUnavailableError,
}


def parse_retry_after(value: Optional[str]) -> Optional[float]:
    """Seconds from a Retry-After header (delta-seconds or an HTTP date)."""
    if value is None or not value.strip():
        return None
    try:
        return max(0.0, float(value))
    except ValueError:
        pass
    try:
        at = email.utils.parsedate_to_datetime(value)
    except (TypeError, ValueError):
        return None
    return max(0.0, at.timestamp() - time.time())


def error_from_problem(problem: Mapping[str, Any], retry_after: Optional[float] = None) -> SvcError:
    """The most specific error class for a problem: by slug, then by status, then by family."""
    slug = str(problem.get("type", "")).rsplit("/", 1)[-1]
    status = int(problem.get("status", 0) or 0)
    cls = _BY_SLUG.get(slug) or _BY_STATUS.get(status)
    if cls is None:
        cls = ServerError if status >= 500 else ClientError if status >= 400 else SvcError
    return cls(problem, retry_after)


def synthetic_problem(status: int, reason: str, body: str) -> Dict[str, Any]:
    """A problem for an answer that is not problem+json (a proxy's HTML page, an empty body)."""
    return {
        "type": "about:blank",
        "title": reason or f"HTTP {status}",
        "status": status,
        "detail": body[:500],
    }
