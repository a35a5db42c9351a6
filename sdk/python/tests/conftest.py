"""Fixtures: a client of the real server named by SVC_URL and SVC_API_KEY (test/sdk/python.test.ts
starts one per database mode), a fresh agent id per test, and a scripted fake server for the retry
and timeout cases that a real server cannot be made to produce on demand."""

from __future__ import annotations

import json
import os
import socket
import threading
import time
import uuid
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any, Dict, Iterator, List, Optional

import pytest

from svc import Svc


def _env(name: str) -> str:
    value = os.environ.get(name)
    if not value:
        pytest.fail(
            f"{name} is unset: run through test/sdk/python.test.ts, or export it for a server"
        )
    return value


@pytest.fixture(scope="session")
def base_url() -> str:
    return _env("SVC_URL")


@pytest.fixture(scope="session")
def api_key() -> str:
    return _env("SVC_API_KEY")


@pytest.fixture()
def client(base_url: str, api_key: str) -> Iterator[Svc]:
    with Svc(base_url, api_key) as svc:
        yield svc


@pytest.fixture()
def agent() -> str:
    return f"py-{uuid.uuid4().hex[:12]}"


def eventually(probe: Any, what: str, seconds: float = 30.0) -> Any:
    """Polls ``probe`` until it returns something truthy (background work: audit drain, jobs)."""
    deadline = time.monotonic() + seconds
    while True:
        value = probe()
        if value:
            return value
        if time.monotonic() > deadline:
            raise AssertionError(f"timed out waiting for {what}")
        time.sleep(0.1)


class Reply:
    """One scripted answer: a status, headers and a JSON body; ``delay`` seconds first; ``drop``
    closes the connection without answering."""

    def __init__(
        self,
        status: int = 200,
        body: Any = None,
        headers: Optional[Dict[str, str]] = None,
        delay: float = 0.0,
        drop: bool = False,
    ) -> None:
        self.status, self.body, self.headers, self.delay, self.drop = (
            status,
            body,
            headers or {},
            delay,
            drop,
        )


def problem(status: int, slug: str, **extra: Any) -> Dict[str, Any]:
    return {
        "type": f"https://svc.dev/errors/{slug}",
        "title": slug,
        "status": status,
        "detail": f"scripted {slug}",
        "instance": "/",
        **extra,
    }


class FakeServer:
    """Answers requests from a script, in order, and records what it received."""

    def __init__(self) -> None:
        self.script: List[Reply] = []
        self.requests: List[Dict[str, Any]] = []
        fake = self

        class Handler(BaseHTTPRequestHandler):
            protocol_version = "HTTP/1.1"

            def log_message(self, *args: Any) -> None:
                return None

            def _answer(self) -> None:
                length = int(self.headers.get("content-length") or 0)
                raw = self.rfile.read(length) if length else b""
                fake.requests.append(
                    {
                        "method": self.command,
                        "path": self.path,
                        "at": time.monotonic(),
                        "headers": {k.lower(): v for k, v in self.headers.items()},
                        "body": json.loads(raw) if raw else None,
                    }
                )
                reply = (
                    fake.script.pop(0)
                    if fake.script
                    else Reply(500, problem(500, "internal-error"))
                )
                time.sleep(reply.delay)
                if reply.drop:
                    self.connection.shutdown(socket.SHUT_RDWR)
                    self.close_connection = True
                    return
                data = json.dumps(reply.body).encode()
                self.send_response(reply.status)
                self.send_header("content-type", "application/json")
                self.send_header("content-length", str(len(data)))
                for name, value in reply.headers.items():
                    self.send_header(name, value)
                self.end_headers()
                self.wfile.write(data)

            do_GET = do_POST = do_PUT = do_PATCH = do_DELETE = _answer

        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.server.daemon_threads = True
        self.url = f"http://127.0.0.1:{self.server.server_address[1]}"
        self.thread = threading.Thread(target=self.server.serve_forever, daemon=True)
        self.thread.start()

    def close(self) -> None:
        self.server.shutdown()
        self.server.server_close()


@pytest.fixture()
def fake() -> Iterator[FakeServer]:
    server = FakeServer()
    yield server
    server.close()
