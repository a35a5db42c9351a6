"""One HTTP exchange with svc, sync and async: auth, JSON, problems to typed errors, timeouts,
bounded retries of 429/503 honouring Retry-After, and an Idempotency-Key on every POST (one a call,
reused by its retries, so retrying a POST whose answer was lost cannot run it twice)."""

from __future__ import annotations

import asyncio
import json
import time
import uuid
from typing import Any, AsyncIterator, Dict, Iterator, Mapping, Optional, TypeVar

import httpx

from .errors import (
    BudgetExceededError,
    IdempotencyKeyInFlightError,
    RateLimitedError,
    ServiceUnavailableError,
    SvcError,
    TimeoutError,
    error_from_problem,
    parse_retry_after,
    synthetic_problem,
)

DEFAULT_TIMEOUT = 30.0
DEFAULT_MAX_RETRIES = 3
DEFAULT_MAX_RETRY_DELAY = 30.0
FALLBACK_BACKOFF = 0.5


class _Settings:
    def __init__(
        self,
        base_url: str,
        api_key: Optional[str],
        timeout: Optional[float],
        max_retries: int,
        max_retry_delay: float,
        headers: Optional[Mapping[str, str]],
    ) -> None:
        self.base_url = base_url.rstrip("/")
        self.timeout = timeout
        self.max_retries = max_retries
        self.max_retry_delay = max_retry_delay
        self.headers: Dict[str, str] = dict(headers or {})
        if api_key:
            self.headers["authorization"] = f"Bearer {api_key}"

    def request(
        self,
        http: Any,
        method: str,
        path: str,
        query: Optional[Mapping[str, Any]],
        body: Any,
        files: Any,
        key: Optional[str],
        timeout: Optional[float],
        accept: str,
    ) -> httpx.Request:
        headers = {"accept": accept, **self.headers}
        if key is not None:
            headers["idempotency-key"] = key
        params = {k: _query_value(v) for k, v in (query or {}).items() if v is not None}
        wait = self.timeout if timeout is None else timeout
        extensions = {"timeout": httpx.Timeout(wait).as_dict()}
        if files is not None:
            return http.build_request(
                method,
                self.base_url + path,
                params=params,
                headers=headers,
                data=body,
                files=files,
                extensions=extensions,
            )
        content = None if body is None else json.dumps(body).encode()
        if content is not None:
            headers["content-type"] = "application/json"
        return http.build_request(
            method,
            self.base_url + path,
            params=params,
            headers=headers,
            content=content,
            extensions=extensions,
        )

    def retry_delay(self, error: SvcError, attempt: int) -> Optional[float]:
        """Seconds to wait before retrying, or None when the error must be raised now."""
        # budget-exceeded waits for a period reset (hours); 409 in-flight: the first answer follows.
        retriable = isinstance(
            error, (RateLimitedError, ServiceUnavailableError, IdempotencyKeyInFlightError)
        )
        if not retriable or isinstance(error, BudgetExceededError) or attempt >= self.max_retries:
            return None
        delay = (
            error.retry_after if error.retry_after is not None else FALLBACK_BACKOFF * 2**attempt
        )
        return None if delay > self.max_retry_delay else delay

    def network_retry_delay(self, key: Optional[str], attempt: int) -> Optional[float]:
        """A connection lost before the answer is retried only under an idempotency key."""
        return None if key is None or attempt >= self.max_retries else FALLBACK_BACKOFF * 2**attempt


def _query_value(value: Any) -> Any:
    return ("true" if value else "false") if isinstance(value, bool) else value


def _idempotency_key(method: str, key: Optional[str]) -> Optional[str]:
    return (key or str(uuid.uuid4())) if method == "POST" else None


def _error(response: httpx.Response) -> SvcError:
    text = response.text
    try:
        parsed = json.loads(text)
    except ValueError:
        parsed = None
    problem = parsed if isinstance(parsed, dict) and isinstance(parsed.get("type"), str) else None
    if problem is None:
        problem = synthetic_problem(response.status_code, response.reason_phrase, text)
    return error_from_problem(problem, parse_retry_after(response.headers.get("retry-after")))


def _timeout(error: httpx.TimeoutException) -> TimeoutError:
    return TimeoutError(f"request timed out ({type(error).__name__}: {error})")


def _json(response: httpx.Response) -> Any:
    return json.loads(response.content) if response.content else None


L = TypeVar("L", bound="SyncLifecycle")
A = TypeVar("A", bound="AsyncLifecycle")


class SyncTransport:
    """Blocking transport over ``httpx.Client``."""

    def __init__(self, settings: _Settings, http: Optional[httpx.Client] = None) -> None:
        self.settings = settings
        self._own = http is None
        self._http = http or httpx.Client()

    def call(
        self,
        method: str,
        path: str,
        *,
        query: Optional[Mapping[str, Any]] = None,
        body: Any = None,
        files: Any = None,
        idempotency_key: Optional[str] = None,
        timeout: Optional[float] = None,
    ) -> Any:
        """Sends the request: the parsed JSON answer, or a problem raised as a typed SvcError."""
        response = self._send(
            method, path, query, body, files, idempotency_key, timeout, "application/json", False
        )
        return _json(response)

    def lines(
        self,
        method: str,
        path: str,
        *,
        body: Any = None,
        accept: str,
        idempotency_key: Optional[str] = None,
        timeout: Optional[float] = None,
    ) -> Iterator[str]:
        """The answer's lines as they arrive; closing the iterator early closes the connection."""
        response = self._send(
            method, path, None, body, None, idempotency_key, timeout, accept, True
        )
        try:
            for line in response.iter_lines():
                yield line.rstrip("\r\n")
        except httpx.TimeoutException as error:
            raise _timeout(error) from error
        finally:
            response.close()

    def _send(
        self,
        method: str,
        path: str,
        query: Any,
        body: Any,
        files: Any,
        key: Optional[str],
        timeout: Optional[float],
        accept: str,
        stream: bool,
    ) -> httpx.Response:
        key = _idempotency_key(method, key)
        attempt = -1
        while True:
            attempt += 1
            request = self.settings.request(
                self._http, method, path, query, body, files, key, timeout, accept
            )
            try:
                response = self._http.send(request, stream=stream)
            except httpx.TimeoutException as error:
                raise _timeout(error) from error
            except httpx.TransportError:
                delay = self.settings.network_retry_delay(key, attempt)
                if delay is None:
                    raise
                time.sleep(delay)
                continue
            if response.is_success:
                return response
            try:
                response.read()
            finally:
                response.close()
            problem = _error(response)
            delay = self.settings.retry_delay(problem, attempt)
            if delay is None:
                raise problem
            time.sleep(delay)

    def get(
        self, path: str, query: Optional[Mapping[str, Any]] = None, timeout: Optional[float] = None
    ) -> Any:
        return self.call("GET", path, query=query, timeout=timeout)

    def post(self, path: str, body: Any, key: Optional[str], timeout: Optional[float]) -> Any:
        return self.call("POST", path, body=body, idempotency_key=key, timeout=timeout)

    def put(self, path: str, body: Any, timeout: Optional[float]) -> Any:
        return self.call("PUT", path, body=body, timeout=timeout)

    def patch(self, path: str, body: Any, timeout: Optional[float]) -> Any:
        return self.call("PATCH", path, body=body, timeout=timeout)

    def delete(self, path: str, timeout: Optional[float]) -> Any:
        return self.call("DELETE", path, timeout=timeout)

    def close(self) -> None:
        if self._own:
            self._http.close()


class AsyncTransport:
    """Asyncio transport over ``httpx.AsyncClient``."""

    def __init__(self, settings: _Settings, http: Optional[httpx.AsyncClient] = None) -> None:
        self.settings = settings
        self._own = http is None
        self._http = http or httpx.AsyncClient()

    async def call(
        self,
        method: str,
        path: str,
        *,
        query: Optional[Mapping[str, Any]] = None,
        body: Any = None,
        files: Any = None,
        idempotency_key: Optional[str] = None,
        timeout: Optional[float] = None,
    ) -> Any:
        """Sends the request: the parsed JSON answer, or a problem raised as a typed SvcError."""
        response = await self._send(
            method, path, query, body, files, idempotency_key, timeout, "application/json", False
        )
        return _json(response)

    async def lines(
        self,
        method: str,
        path: str,
        *,
        body: Any = None,
        accept: str,
        idempotency_key: Optional[str] = None,
        timeout: Optional[float] = None,
    ) -> AsyncIterator[str]:
        """The answer's lines as they arrive; closing the iterator early closes the connection."""
        response = await self._send(
            method, path, None, body, None, idempotency_key, timeout, accept, True
        )
        try:
            async for line in response.aiter_lines():
                yield line.rstrip("\r\n")
        except httpx.TimeoutException as error:
            raise _timeout(error) from error
        finally:
            await response.aclose()

    async def _send(
        self,
        method: str,
        path: str,
        query: Any,
        body: Any,
        files: Any,
        key: Optional[str],
        timeout: Optional[float],
        accept: str,
        stream: bool,
    ) -> httpx.Response:
        key = _idempotency_key(method, key)
        attempt = -1
        while True:
            attempt += 1
            request = self.settings.request(
                self._http, method, path, query, body, files, key, timeout, accept
            )
            try:
                response = await self._http.send(request, stream=stream)
            except httpx.TimeoutException as error:
                raise _timeout(error) from error
            except httpx.TransportError:
                delay = self.settings.network_retry_delay(key, attempt)
                if delay is None:
                    raise
                await asyncio.sleep(delay)
                continue
            if response.is_success:
                return response
            try:
                await response.aread()
            finally:
                await response.aclose()
            problem = _error(response)
            delay = self.settings.retry_delay(problem, attempt)
            if delay is None:
                raise problem
            await asyncio.sleep(delay)

    async def get(
        self, path: str, query: Optional[Mapping[str, Any]] = None, timeout: Optional[float] = None
    ) -> Any:
        return await self.call("GET", path, query=query, timeout=timeout)

    async def post(self, path: str, body: Any, key: Optional[str], timeout: Optional[float]) -> Any:
        return await self.call("POST", path, body=body, idempotency_key=key, timeout=timeout)

    async def put(self, path: str, body: Any, timeout: Optional[float]) -> Any:
        return await self.call("PUT", path, body=body, timeout=timeout)

    async def patch(self, path: str, body: Any, timeout: Optional[float]) -> Any:
        return await self.call("PATCH", path, body=body, timeout=timeout)

    async def delete(self, path: str, timeout: Optional[float]) -> Any:
        return await self.call("DELETE", path, timeout=timeout)

    async def close(self) -> None:
        if self._own:
            await self._http.aclose()


class SyncLifecycle:
    """``with Svc(...) as svc:`` closes the connection pool at the end (unless it was passed in)."""

    _t: SyncTransport

    def close(self) -> None:
        self._t.close()

    def __enter__(self: L) -> L:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


class AsyncLifecycle:
    """``async with AsyncSvc(...) as svc:`` closes the connection pool (unless it was passed in)."""

    _t: AsyncTransport

    async def close(self) -> None:
        await self._t.close()

    async def __aenter__(self: A) -> A:
        return self

    async def __aexit__(self, *exc: object) -> None:
        await self.close()
