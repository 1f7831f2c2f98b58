"""The opt-in retry helper: only 429 and 503 CAPACITY_EXHAUSTED /
SERVICE_UNAVAILABLE are retried, never before the Retry-After the daemon gave."""
from __future__ import annotations

import random as _random
import time
from typing import Callable, Optional, TypeVar

from .errors import SvcError

__all__ = ["RetryPolicy", "with_retry", "RETRIED_503_CODES"]

T = TypeVar("T")

#: The 503 codes worth retrying: the whole service is busy, or briefly unavailable.
RETRIED_503_CODES = frozenset({"CAPACITY_EXHAUSTED", "SERVICE_UNAVAILABLE"})


class RetryPolicy:
    """How to retry: ``attempts`` tries in total (≥ 1), exponential backoff from ``base_delay``
    seconds capped at ``max_delay``, never shorter than the answer's Retry-After.

    The wait before try n+1 (after try n failed) is
    ``max(retry_after, min(max_delay, base_delay * 2**(n-1)))`` plus a jitter drawn uniformly
    from ``[0, min(1.0, that wait * 0.25)]`` seconds. ``sleep`` does the waiting (default
    :func:`time.sleep`; tests pass a recorder); ``random`` returns a float in [0, 1) for the
    jitter (default :func:`random.random`).

    Retried: 429 (any code) and 503 with code CAPACITY_EXHAUSTED or SERVICE_UNAVAILABLE. Never
    another 4xx (the same request fails again), never 500, 408 or another 5xx, never
    CLIENT_NETWORK_ERROR or CLIENT_BAD_RESPONSE.
    """

    def __init__(
        self,
        attempts: int = 3,
        base_delay: float = 0.5,
        max_delay: float = 30.0,
        sleep: Callable[[float], None] = time.sleep,
        random: Callable[[], float] = _random.random,
    ) -> None:
        """Validate and keep the options (ValueError for attempts < 1 or negative delays)."""
        if isinstance(attempts, bool) or not isinstance(attempts, int) or attempts < 1:
            raise ValueError("attempts must be an integer ≥ 1 (the total number of tries)")
        if base_delay < 0 or max_delay < 0:
            raise ValueError("base_delay and max_delay must not be negative")
        self.attempts = attempts
        self.base_delay = float(base_delay)
        self.max_delay = float(max_delay)
        self.sleep = sleep
        self.random = random

    def should_retry(self, error: BaseException) -> bool:
        """True for a retryable SvcError: status 429, or 503 with a retried code."""
        if not isinstance(error, SvcError):
            return False
        if error.status == 429:
            return True
        return error.status == 503 and error.code in RETRIED_503_CODES

    def delay(self, attempt: int, retry_after: Optional[int] = None) -> float:
        """Seconds to wait after try number ``attempt`` (1-based) failed with ``retry_after``."""
        backoff = min(self.max_delay, self.base_delay * (2 ** (attempt - 1)))
        wait = max(float(retry_after or 0), backoff)
        jitter = self.random() * min(1.0, wait * 0.25)
        return wait + jitter

    def __repr__(self) -> str:
        return f"RetryPolicy(attempts={self.attempts}, base_delay={self.base_delay}, max_delay={self.max_delay})"


def with_retry(fn: Callable[[], T], policy: Optional[RetryPolicy] = None) -> T:
    """Call ``fn()`` and retry it under ``policy`` (default ``RetryPolicy()``).

    Returns what ``fn`` returns. After the last try, or at once for an error that is not
    retried, the SvcError is raised unchanged (with its ``retry_after``). Exceptions other than
    SvcError are never retried.
    """
    policy = policy if policy is not None else RetryPolicy()
    attempt = 1
    while True:
        try:
            return fn()
        except SvcError as error:
            if attempt >= policy.attempts or not policy.should_retry(error):
                raise
            policy.sleep(policy.delay(attempt, error.retry_after))
            attempt += 1
