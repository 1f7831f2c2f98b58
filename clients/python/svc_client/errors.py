"""The one error class of the svc client, and the Retry-After parser."""
from __future__ import annotations

import email.utils
import math
import re
import time
from typing import Any, Dict, List, Mapping, Optional

__all__ = ["SvcError", "CLIENT_NETWORK_ERROR", "CLIENT_BAD_RESPONSE", "parse_retry_after"]

#: The daemon could not be reached (connection refused, DNS, reset, the client's own timeout).
#: ``status`` is 0; the original exception is ``cause`` (and ``__cause__``).
CLIENT_NETWORK_ERROR = "CLIENT_NETWORK_ERROR"

#: An answer that is not what openapi.json says: an error status without a problem body, a
#: success whose body is not a JSON object, a broken event stream. ``status`` is the HTTP status.
CLIENT_BAD_RESPONSE = "CLIENT_BAD_RESPONSE"

_CLIENT_TITLES = {
    CLIENT_NETWORK_ERROR: "The daemon could not be reached",
    CLIENT_BAD_RESPONSE: "The daemon's answer is not what the API document describes",
}

_DIGITS = re.compile(r"[0-9]{1,10}")


def parse_retry_after(value: Optional[str], now: Optional[float] = None) -> Optional[int]:
    """Parse a ``Retry-After`` header value into whole seconds (never negative).

    Accepts delay-seconds (``"3"``) and an HTTP date (the seconds from ``now``, rounded up; a
    date in the past gives 0). Anything else — absent, empty, negative, fractional, garbage —
    gives None. ``now`` is unix seconds (default: the clock).
    """
    if value is None:
        return None
    text = value.strip()
    if not text:
        return None
    if _DIGITS.fullmatch(text):
        return int(text)
    if text[0].isdigit() or text[0] in "+-":
        return None
    try:
        when = email.utils.parsedate_to_datetime(text)
    except (TypeError, ValueError, IndexError, OverflowError):
        return None
    if when is None or when.tzinfo is None:
        return None
    current = time.time() if now is None else now
    return max(0, int(math.ceil(when.timestamp() - current)))


class SvcError(Exception):
    """An svc API error: a problem answered by the daemon (RFC 9457), or a client-side
    failure with a client code (CLIENT_NETWORK_ERROR, CLIENT_BAD_RESPONSE).

    Attributes:
        problem: the whole problem object as received (for client codes, one made here with
            the same members).
        code: the stable code; use it in logic, never ``title`` or ``detail``.
        status: the HTTP status (0 when no HTTP answer came).
        detail, title, type: the problem's members (strings; ``''`` when absent).
        trace: the resolution stages (a list) when the problem carries them, else None.
        retry_after: whole seconds from the response's ``Retry-After`` header, or None.
        request_id: the daemon's id of the request (the problem's ``requestId``), or None;
            quote it when reporting a problem (the operator finds the access-log line by it).
        cause: the underlying exception of a client-side failure, else None.
    """

    problem: Dict[str, Any]
    code: str
    status: int
    detail: str
    title: str
    type: str
    trace: Optional[List[Dict[str, Any]]]
    retry_after: Optional[int]
    request_id: Optional[str]
    cause: Optional[BaseException]

    def __init__(
        self,
        problem: Mapping[str, Any],
        status: Optional[int] = None,
        retry_after: Optional[int] = None,
        cause: Optional[BaseException] = None,
    ) -> None:
        """Wrap ``problem``; ``status`` defaults to the problem's own ``status`` member."""
        self.problem = dict(problem)
        self.code = _text(self.problem.get("code")) or CLIENT_BAD_RESPONSE
        declared = self.problem.get("status")
        if status is None:
            status = declared if isinstance(declared, int) and not isinstance(declared, bool) else 0
        self.status = status
        self.detail = _text(self.problem.get("detail"))
        self.title = _text(self.problem.get("title"))
        self.type = _text(self.problem.get("type"))
        trace = self.problem.get("trace")
        self.trace = list(trace) if isinstance(trace, list) else None
        self.retry_after = retry_after
        self.request_id = _text(self.problem.get("requestId")) or None
        self.cause = cause
        super().__init__(f"{self.code} ({self.status}): {self.detail or self.title}")

    @classmethod
    def client(
        cls,
        code: str,
        detail: str,
        status: int = 0,
        retry_after: Optional[int] = None,
        cause: Optional[BaseException] = None,
    ) -> "SvcError":
        """A client-side error (CLIENT_NETWORK_ERROR or CLIENT_BAD_RESPONSE) with its problem."""
        problem = {
            "type": "about:blank",
            "title": _CLIENT_TITLES.get(code, code),
            "status": status,
            "detail": detail,
            "code": code,
        }
        return cls(problem, status=status, retry_after=retry_after, cause=cause)

    def __repr__(self) -> str:
        return f"SvcError(code={self.code!r}, status={self.status!r}, detail={self.detail!r}, retry_after={self.retry_after!r})"


def _text(value: Any) -> str:
    return value if isinstance(value, str) else ""
