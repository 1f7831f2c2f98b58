"""Webhook signature verifiers: operator webhooks and customer webhooks.

Both return a bool and never raise: anything missing, malformed, out of the time window or not
matching is False. HMAC-SHA256 with :mod:`hmac` and :mod:`hashlib`, compared with
:func:`hmac.compare_digest` on inputs of equal length only.

Headers may be any mapping (a dict, ``http.client.HTTPMessage``, ``email.message.Message``, a
framework's header object with ``items()``) or an iterable of ``(name, value)`` pairs. Names are
matched case-insensitively; values are str (or bytes, read as Latin-1), surrounding spaces and
tabs are ignored (they are not part of an HTTP field value), None means absent, and a list or
tuple value holds repeated fields. A header that occurs more than once (with any values) makes
the delivery ambiguous: False.
"""
from __future__ import annotations

import hashlib
import hmac
import re
import time
from typing import Any, Iterable, List, Mapping, Optional, Tuple, Union

__all__ = [
    "verify_webhook",
    "verify_customer_webhook",
    "OPERATOR_TOLERANCE_SECONDS",
    "CUSTOMER_TOLERANCE_SECONDS",
]

#: Operator webhooks: timestamps older (or further in the future) than this are refused by default.
OPERATOR_TOLERANCE_SECONDS = 300

#: Customer webhooks: a retried delivery keeps its signature and ``t`` (the event's creation time),
#: so the window must cover the retry schedule — backoff 60 + 120 + 240 + 480 s
#: between the five attempts plus five attempts of up to 45 s each = 1125 s — with room for
#: queueing and clock skew: 1800 s.
CUSTOMER_TOLERANCE_SECONDS = 1800

Headers = Union[Mapping[str, Any], Iterable[Tuple[str, Any]]]
Secret = Union[str, bytes, bytearray]
Body = Union[str, bytes, bytearray, memoryview]

_TIMESTAMP = re.compile(r"[0-9]{1,15}")
_HEX64 = re.compile(r"[0-9a-f]{64}")
_OWS = " \t"
#: At most this many ``v1`` values of one X-SVC-Signature are tried (each costs an HMAC).
_MAX_V1_SIGNATURES = 16


def verify_webhook(
    secret: Secret,
    headers: Headers,
    raw_body: Body,
    tolerance_seconds: float = OPERATOR_TOLERANCE_SECONDS,
    now: Optional[float] = None,
) -> bool:
    """Verify an operator webhook delivery. Never raises.

    True iff ``X-Svc-Timestamp`` (unix seconds, ASCII digits only) and ``X-Svc-Signature-256``
    (``sha256=`` and 64 lowercase hex digits) are each present once and well formed,
    ``|now - timestamp| <= tolerance_seconds`` (in both directions), and the signature is the
    HMAC-SHA256, keyed with ``secret`` (str → UTF-8, or bytes; an empty secret never verifies),
    of the bytes ``<timestamp>.<raw body>``. ``raw_body`` is the body exactly as received (str →
    UTF-8, or bytes): verify before parsing it. ``now`` is unix seconds (default: the clock).
    """
    try:
        key = _key(secret)
        body = _body(raw_body)
        if key is None or body is None:
            return False
        found = _find(headers, ("x-svc-timestamp", "x-svc-signature-256"))
        if found is None:
            return False
        timestamp, signature = found
        if timestamp is None or signature is None:
            return False
        if not _TIMESTAMP.fullmatch(timestamp) or not _fresh(int(timestamp), tolerance_seconds, now):
            return False
        if not signature.startswith("sha256="):
            return False
        given = signature[len("sha256=") :]
        if not _HEX64.fullmatch(given):
            return False
        return _matches(key, timestamp.encode("ascii") + b"." + body, given)
    except Exception:  # noqa: BLE001 — a verifier answers False, it never raises
        return False


def verify_customer_webhook(
    secret: Secret,
    headers: Headers,
    raw_body: Body,
    tolerance_seconds: float = CUSTOMER_TOLERANCE_SECONDS,
    now: Optional[float] = None,
) -> bool:
    """Verify a customer webhook delivery. Never raises.

    True iff ``X-SVC-Event-ID`` is present (non-empty; receivers deduplicate on it) and
    ``X-SVC-Signature`` is present once as ``t=<creationTime>,v1=<hex>`` — parts separated by
    commas in any order, spaces around parts tolerated, ``t`` exactly once and ASCII digits,
    one to 16 ``v1`` (any may match; a v1 that is not 64 lowercase hex digits never matches),
    other parts ignored, a part without ``=`` malformed — with ``|now - t| <=
    tolerance_seconds`` in both directions, and a v1 equal to the HMAC-SHA256, keyed with
    ``secret``, of ``<t>.<exact UTF-8 body>``.

    The default window is 1800 s because retries keep the same signature and ``t`` (the
    event's creation time): it covers the retry schedule (60 + 120 + 240 + 480 s of
    backoff plus five attempts of up to 45 s).
    """
    try:
        key = _key(secret)
        body = _body(raw_body)
        if key is None or body is None:
            return False
        found = _find(headers, ("x-svc-event-id", "x-svc-signature"))
        if found is None:
            return False
        event_id, signature = found
        if not event_id or signature is None:
            return False
        timestamps: List[str] = []
        candidates: List[str] = []
        for part in signature.split(","):
            part = part.strip(_OWS)
            if not part:
                continue
            name, equals, value = part.partition("=")
            if not equals:
                return False
            name = name.strip(_OWS)
            value = value.strip(_OWS)
            if name == "t":
                timestamps.append(value)
            elif name == "v1":
                candidates.append(value)
        if len(timestamps) != 1 or not candidates or len(candidates) > _MAX_V1_SIGNATURES:
            return False
        t = timestamps[0]
        if not _TIMESTAMP.fullmatch(t) or not _fresh(int(t), tolerance_seconds, now):
            return False
        message = t.encode("ascii") + b"." + body
        matched = False
        for candidate in candidates:
            # Every candidate is compared (no early exit), each in constant time.
            if _HEX64.fullmatch(candidate) and _matches(key, message, candidate):
                matched = True
        return matched
    except Exception:  # noqa: BLE001 — a verifier answers False, it never raises
        return False


def _key(secret: Any) -> Optional[bytes]:
    if isinstance(secret, str):
        key = secret.encode("utf-8")
    elif isinstance(secret, (bytes, bytearray)):
        key = bytes(secret)
    else:
        return None
    return key or None


def _body(raw_body: Any) -> Optional[bytes]:
    if isinstance(raw_body, str):
        return raw_body.encode("utf-8")
    if isinstance(raw_body, (bytes, bytearray, memoryview)):
        return bytes(raw_body)
    return None


def _fresh(timestamp: int, tolerance_seconds: float, now: Optional[float]) -> bool:
    current = time.time() if now is None else now
    return abs(current - timestamp) <= tolerance_seconds


def _matches(key: bytes, message: bytes, given_hex: str) -> bool:
    expected = hmac.new(key, message, hashlib.sha256).hexdigest().encode("ascii")
    given = given_hex.encode("ascii")
    if len(expected) != len(given):
        return False
    return hmac.compare_digest(expected, given)


def _find(headers: Any, names: Tuple[str, ...]) -> Optional[Tuple[Optional[str], ...]]:
    """The value of each wanted header (None when absent); None overall when one is repeated
    or the headers cannot be read."""
    values: List[List[str]] = [[] for _ in names]
    for name, value in _pairs(headers):
        if not isinstance(name, str):
            if isinstance(name, (bytes, bytearray)):
                name = bytes(name).decode("latin-1")
            else:
                return None
        key = name.strip(_OWS).lower()
        if key not in names:
            continue
        slot = values[names.index(key)]
        items = value if isinstance(value, (list, tuple)) else [value]
        for item in items:
            if item is None:
                continue
            if isinstance(item, (bytes, bytearray)):
                item = bytes(item).decode("latin-1")
            if not isinstance(item, str):
                return None
            slot.append(item.strip(_OWS))
    if any(len(slot) > 1 for slot in values):
        return None
    return tuple(slot[0] if slot else None for slot in values)


def _pairs(headers: Any) -> Iterable[Tuple[Any, Any]]:
    if headers is None:
        return []
    items = getattr(headers, "items", None)
    if callable(items):
        # Mappings, and http.client.HTTPMessage / email.message.Message, whose items() lists
        # every field (repeated ones too).
        return list(items())
    return [tuple(pair) for pair in headers]
