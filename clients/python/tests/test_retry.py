"""The retry helper and the Retry-After parser (offline)."""
from __future__ import annotations

import email.utils
import unittest
from typing import List, Optional

from svc_client import CLIENT_BAD_RESPONSE, CLIENT_NETWORK_ERROR, RetryPolicy, SvcError, parse_retry_after, with_retry

from ._support import Recorder


def problem(status: int, code: str, retry_after: Optional[int] = None) -> SvcError:
    return SvcError({"type": f"urn:svc:problems#{code}", "title": code, "status": status, "detail": "d", "code": code}, status=status, retry_after=retry_after)


class ShouldRetryTest(unittest.TestCase):
    def test_retried_only_429_and_two_503_codes(self) -> None:
        policy = RetryPolicy()
        retried = [problem(429, "RATE_LIMITED"), problem(429, "KEY_CAPACITY_EXHAUSTED"), problem(503, "CAPACITY_EXHAUSTED"), problem(503, "SERVICE_UNAVAILABLE")]
        never = [
            problem(400, "INVALID_DID"),
            problem(400, "INVALID_REQUEST"),
            problem(401, "UNAUTHORIZED"),
            problem(403, "EGRESS_BLOCKED"),
            problem(404, "NOT_FOUND"),
            problem(408, "REQUEST_TIMEOUT"),
            problem(413, "PAYLOAD_TOO_LARGE"),
            problem(422, "INVALID_DID_DOCUMENT"),
            problem(500, "INTERNAL_ERROR"),
            problem(501, "METHOD_NOT_SUPPORTED"),
            problem(502, "UPSTREAM_UNAVAILABLE"),
            problem(503, "NOT_READY"),
            SvcError.client(CLIENT_NETWORK_ERROR, "refused"),
            SvcError.client(CLIENT_BAD_RESPONSE, "html", 503),
            SvcError.client(CLIENT_BAD_RESPONSE, "html", 502),
        ]
        for error in retried:
            self.assertTrue(policy.should_retry(error), repr(error))
        for error in never:
            self.assertFalse(policy.should_retry(error), repr(error))
        self.assertFalse(policy.should_retry(ValueError("x")))


class DelayTest(unittest.TestCase):
    def test_exponential_backoff_capped(self) -> None:
        policy = RetryPolicy(base_delay=0.5, max_delay=3.0, random=lambda: 0.0)
        self.assertEqual([policy.delay(n) for n in range(1, 7)], [0.5, 1.0, 2.0, 3.0, 3.0, 3.0])

    def test_never_less_than_retry_after_even_above_max_delay(self) -> None:
        policy = RetryPolicy(base_delay=0.5, max_delay=3.0, random=lambda: 0.0)
        self.assertEqual(policy.delay(1, 7), 7.0)
        self.assertEqual(policy.delay(3, 1), 2.0)
        self.assertEqual(policy.delay(1, 0), 0.5)
        self.assertEqual(policy.delay(1, None), 0.5)

    def test_jitter_is_at_most_a_quarter_and_at_most_one_second(self) -> None:
        top = RetryPolicy(base_delay=0.5, max_delay=30.0, random=lambda: 0.999999)
        self.assertAlmostEqual(top.delay(1), 0.5 + 0.125, places=4)
        self.assertAlmostEqual(top.delay(1, 3), 3.0 + 0.75, places=4)
        self.assertAlmostEqual(top.delay(1, 10), 10.0 + 1.0, places=4)
        self.assertAlmostEqual(top.delay(8), 30.0 + 1.0, places=4)

    def test_default_random_stays_in_bounds(self) -> None:
        policy = RetryPolicy()
        for attempt in range(1, 8):
            for retry_after in (None, 1, 3, 60):
                wait = max(float(retry_after or 0), min(30.0, 0.5 * 2 ** (attempt - 1)))
                for _ in range(50):
                    d = policy.delay(attempt, retry_after)
                    self.assertGreaterEqual(d, wait)
                    self.assertLessEqual(d, wait + min(1.0, wait * 0.25))

    def test_options_are_checked(self) -> None:
        for bad in (0, -1, 1.5, True):
            with self.assertRaises(ValueError):
                RetryPolicy(attempts=bad)  # type: ignore[arg-type]
        with self.assertRaises(ValueError):
            RetryPolicy(base_delay=-1)


class WithRetryTest(unittest.TestCase):
    def run_sequence(self, outcomes: List[object], policy: RetryPolicy) -> object:
        calls = iter(outcomes)

        def fn() -> object:
            self.tries += 1
            outcome = next(calls)
            if isinstance(outcome, BaseException):
                raise outcome
            return outcome

        self.tries = 0
        return with_retry(fn, policy)

    def test_waits_retry_after_then_succeeds(self) -> None:
        sleep = Recorder()
        policy = RetryPolicy(attempts=4, base_delay=0.5, sleep=sleep, random=lambda: 0.0)
        result = self.run_sequence([problem(429, "RATE_LIMITED", 3), problem(503, "CAPACITY_EXHAUSTED", 1), "ok"], policy)
        self.assertEqual(result, "ok")
        self.assertEqual(self.tries, 3)
        self.assertEqual(sleep.calls, [3.0, 1.0])

    def test_after_the_last_try_the_last_error_is_raised(self) -> None:
        sleep = Recorder()
        last = problem(429, "RATE_LIMITED", 9)
        policy = RetryPolicy(attempts=3, sleep=sleep, random=lambda: 0.0)
        with self.assertRaises(SvcError) as caught:
            self.run_sequence([problem(429, "RATE_LIMITED", 2), problem(429, "RATE_LIMITED", 4), last, "never"], policy)
        self.assertIs(caught.exception, last)
        self.assertEqual(caught.exception.retry_after, 9)
        self.assertEqual(self.tries, 3)
        self.assertEqual(sleep.calls, [2.0, 4.0])

    def test_a_4xx_is_raised_at_once(self) -> None:
        for error in (problem(400, "INVALID_DID"), problem(404, "NOT_FOUND"), problem(500, "INTERNAL_ERROR"), SvcError.client(CLIENT_NETWORK_ERROR, "x")):
            sleep = Recorder()
            with self.subTest(code=error.code), self.assertRaises(SvcError) as caught:
                self.run_sequence([error, "never"], RetryPolicy(sleep=sleep))
            self.assertIs(caught.exception, error)
            self.assertEqual(self.tries, 1)
            self.assertEqual(sleep.calls, [])

    def test_one_attempt_means_no_retry(self) -> None:
        sleep = Recorder()
        with self.assertRaises(SvcError):
            self.run_sequence([problem(429, "RATE_LIMITED", 1), "never"], RetryPolicy(attempts=1, sleep=sleep))
        self.assertEqual((self.tries, sleep.calls), (1, []))

    def test_other_exceptions_are_not_retried(self) -> None:
        sleep = Recorder()
        with self.assertRaises(KeyError):
            self.run_sequence([KeyError("x"), "never"], RetryPolicy(sleep=sleep))
        self.assertEqual((self.tries, sleep.calls), (1, []))


class RetryAfterTest(unittest.TestCase):
    def test_delay_seconds(self) -> None:
        self.assertEqual(parse_retry_after("3"), 3)
        self.assertEqual(parse_retry_after(" 7 "), 7)
        self.assertEqual(parse_retry_after("0"), 0)
        self.assertEqual(parse_retry_after("0120"), 120)

    def test_absent_or_malformed_is_none(self) -> None:
        for value in (None, "", "  ", "-1", "+3", "1.5", "3s", "abc", "99999999999", "٣", "1e3"):
            with self.subTest(value=value):
                self.assertIsNone(parse_retry_after(value))

    def test_http_date(self) -> None:
        now = 1_800_000_000.0
        self.assertEqual(parse_retry_after(email.utils.formatdate(now + 10, usegmt=True), now=now), 10)
        self.assertEqual(parse_retry_after(email.utils.formatdate(now + 10, usegmt=True), now=now + 0.5), 10)
        self.assertEqual(parse_retry_after(email.utils.formatdate(now - 100, usegmt=True), now=now), 0)
        self.assertIsNone(parse_retry_after("Mon, 99 Foo 2020 25:00:00 GMT", now=now))


if __name__ == "__main__":
    unittest.main()
