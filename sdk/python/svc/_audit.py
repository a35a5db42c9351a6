"""The audit hash chain recomputed exactly as docs/audit.md publishes it (SHA-256 over the previous
hash's bytes and the row's canonical JSON), and the pages of GET /v1/audit as one iterator."""

from __future__ import annotations

import hashlib
import json
import math
from dataclasses import dataclass
from typing import Any, AsyncIterator, Dict, Iterable, Iterator, Mapping, Optional

GENESIS_HASH = "0" * 64


@dataclass(frozen=True)
class ChainVerdict:
    """``ok`` with the row count and the ``head`` (seq, hash) to keep, or where the chain breaks."""

    ok: bool
    rows: int
    head: Optional[Dict[str, Any]] = None
    first_broken_seq: Optional[int] = None
    reason: Optional[str] = None


def canonical_json(value: Any) -> str:
    """RFC 8785 style: keys sorted by UTF-16 code units, no whitespace, numbers as ECMAScript
    prints them (src/domain/audit/canonical.ts)."""
    if value is None:
        return "null"
    if value is True:
        return "true"
    if value is False:
        return "false"
    if isinstance(value, str):
        return json.dumps(value, ensure_ascii=False)
    if isinstance(value, (int, float)):
        return _number(value)
    if isinstance(value, (list, tuple)):
        return "[" + ",".join(canonical_json(v) for v in value) + "]"
    if isinstance(value, Mapping):
        keys = sorted(value, key=lambda k: str(k).encode("utf-16-be", "surrogatepass"))
        return (
            "{"
            + ",".join(f"{canonical_json(str(k))}:{canonical_json(value[k])}" for k in keys)
            + "}"
        )
    raise TypeError(f"cannot canonicalise a {type(value).__name__}")


def _number(value: float) -> str:
    if isinstance(value, int) or (
        math.isfinite(value) and value == int(value) and abs(value) < 1e21
    ):
        return str(int(value))
    if not math.isfinite(value):
        raise ValueError("non-finite number in canonical JSON")
    text = repr(value)
    # ECMAScript writes exponents as "1e+21" and "1e-7"; Python as "1e+21" and "1e-07".
    if "e" in text:
        mantissa, exponent = text.split("e")
        sign = "-" if exponent.startswith("-") else "+"
        return f"{mantissa}e{sign}{int(exponent.lstrip('+-'))}"
    return text


def row_hash(prev_hash: str, org_id: str, row: Mapping[str, Any]) -> str:
    body = canonical_json(
        {
            "agent_id": row.get("agent_id"),
            "detail": row.get("detail"),
            "key_id": row.get("key_id"),
            "occurred_at": int(row["occurred_at_us"]),
            "operation": row.get("operation"),
            "org_id": org_id,
            "request_id": row.get("request_id"),
            "seq": int(row["seq"]),
            "target_ids": row.get("target_ids"),
        }
    )
    return hashlib.sha256(bytes.fromhex(prev_hash) + body.encode("utf-8")).hexdigest()


class ChainChecker:
    """Checks seq continuity from 1, prev_hash links and every hash, one row at a time."""

    def __init__(self, org_id: str) -> None:
        self.org_id = org_id
        self.prev = GENESIS_HASH
        self.expected = 1
        self.head: Optional[Dict[str, Any]] = None

    def check(self, row: Mapping[str, Any]) -> Optional[ChainVerdict]:
        """None while the chain holds; the failing verdict at the first broken row."""
        seq = int(row["seq"])
        if seq != self.expected:
            return self._broken(seq, f"expected seq {self.expected}, got {seq}")
        if row.get("prev_hash") != self.prev:
            return self._broken(seq, "prev_hash does not match the previous row's hash")
        if row_hash(self.prev, self.org_id, row) != row.get("hash"):
            return self._broken(seq, "hash does not match the row's content")
        self.prev = str(row["hash"])
        self.head = {"seq": seq, "hash": self.prev}
        self.expected += 1
        return None

    def verdict(self) -> ChainVerdict:
        return ChainVerdict(ok=True, rows=self.expected - 1, head=self.head)

    def _broken(self, seq: int, reason: str) -> ChainVerdict:
        return ChainVerdict(ok=False, rows=self.expected - 1, first_broken_seq=seq, reason=reason)


def verify_rows(org_id: str, rows: Iterable[Mapping[str, Any]]) -> ChainVerdict:
    """Verifies rows already in hand (e.g. read from a file) in seq order from seq 1."""
    checker = ChainChecker(org_id)
    for row in rows:
        broken = checker.check(row)
        if broken is not None:
            return broken
    return checker.verdict()


def sync_verify_rows(org_id: str, rows: Iterator[Mapping[str, Any]]) -> ChainVerdict:
    return verify_rows(org_id, rows)


async def async_verify_rows(org_id: str, rows: AsyncIterator[Mapping[str, Any]]) -> ChainVerdict:
    checker = ChainChecker(org_id)
    async for row in rows:
        broken = checker.check(row)
        if broken is not None:
            return broken
    return checker.verdict()


def sync_audit_rows(
    transport: Any, query: Dict[str, Any], timeout: Optional[float]
) -> Iterator[Any]:
    cursor = None
    while True:
        page = transport.call(
            "GET", "/v1/audit", query={**query, "cursor": cursor}, timeout=timeout
        )
        yield from page["items"]
        cursor = page.get("next_cursor")
        if not cursor:
            return


async def async_audit_rows(
    transport: Any, query: Dict[str, Any], timeout: Optional[float]
) -> AsyncIterator[Any]:
    cursor = None
    while True:
        page = await transport.call(
            "GET", "/v1/audit", query={**query, "cursor": cursor}, timeout=timeout
        )
        for row in page["items"]:
            yield row
        cursor = page.get("next_cursor")
        if not cursor:
            return
