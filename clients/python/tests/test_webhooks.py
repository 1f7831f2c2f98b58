"""The webhook verifiers (offline): vectors computed here with hmac, independently of the
module under test."""
from __future__ import annotations

import email.message
import hashlib
import hmac
import http.client
import io
import time
import unittest
from typing import Any, Dict

from svc_client import verify_customer_webhook, verify_webhook

SECRET = "whsec_test_secret"
BODY = '{"id":"evt_42","type":"identity.document.changed","data":{"note":"café ✓"}}'
NOW = 1_800_000_000


def sign(secret: str, timestamp: str, body: str) -> str:
    return hmac.new(secret.encode("utf-8"), f"{timestamp}.{body}".encode("utf-8"), hashlib.sha256).hexdigest()


def operator_headers(timestamp: int = NOW, secret: str = SECRET, body: str = BODY) -> Dict[str, str]:
    return {"X-Svc-Timestamp": str(timestamp), "X-Svc-Signature-256": "sha256=" + sign(secret, str(timestamp), body), "X-Svc-Event": "identity.document.changed", "X-Svc-Event-Id": "evt_42"}


def customer_headers(t: int = NOW, secret: str = SECRET, body: str = BODY) -> Dict[str, str]:
    return {"X-SVC-Event-ID": "evt_42", "X-SVC-Signature": f"t={t},v1={sign(secret, str(t), body)}"}


class OperatorWebhookTest(unittest.TestCase):
    def ok(self, headers: Any, body: Any = BODY, secret: Any = SECRET, **kw: Any) -> bool:
        kw.setdefault("now", NOW)
        result = verify_webhook(secret, headers, body, **kw)
        self.assertIsInstance(result, bool)
        return result

    def test_valid(self) -> None:
        self.assertTrue(self.ok(operator_headers()))
        self.assertTrue(self.ok(operator_headers(), body=BODY.encode("utf-8"), secret=SECRET.encode("utf-8")))
        self.assertTrue(self.ok(operator_headers(), body=bytearray(BODY.encode("utf-8"))))
        self.assertTrue(self.ok(operator_headers(), body=memoryview(BODY.encode("utf-8"))))

    def test_default_clock(self) -> None:
        now = int(time.time())
        self.assertTrue(verify_webhook(SECRET, operator_headers(now), BODY))
        self.assertFalse(verify_webhook(SECRET, operator_headers(now - 400), BODY))

    def test_tampered_body_and_wrong_secret(self) -> None:
        self.assertFalse(self.ok(operator_headers(), body=BODY.replace("42", "43")))
        self.assertFalse(self.ok(operator_headers(), body=BODY + "\n"))
        self.assertFalse(self.ok(operator_headers(), body=BODY.encode("utf-8") + b" "))
        self.assertFalse(self.ok(operator_headers(), secret="whsec_other"))
        self.assertFalse(self.ok(operator_headers(), secret=""))
        self.assertFalse(self.ok(operator_headers(secret="")))

    def test_timestamp_window_both_directions(self) -> None:
        self.assertTrue(self.ok(operator_headers(NOW - 300)))
        self.assertTrue(self.ok(operator_headers(NOW + 300)))
        self.assertFalse(self.ok(operator_headers(NOW - 301)))
        self.assertFalse(self.ok(operator_headers(NOW + 301)))
        self.assertTrue(self.ok(operator_headers(NOW - 301), tolerance_seconds=301))
        self.assertFalse(self.ok(operator_headers(NOW - 10), tolerance_seconds=5))

    def test_the_timestamp_is_signed(self) -> None:
        headers = operator_headers()
        headers["X-Svc-Timestamp"] = str(NOW + 1)
        self.assertFalse(self.ok(headers))

    def test_each_header_missing(self) -> None:
        for name in ("X-Svc-Timestamp", "X-Svc-Signature-256"):
            headers = operator_headers()
            del headers[name]
            with self.subTest(missing=name):
                self.assertFalse(self.ok(headers))
            headers = operator_headers()
            headers[name] = None  # type: ignore[assignment]
            with self.subTest(none=name):
                self.assertFalse(self.ok(headers))
        self.assertFalse(self.ok({}))

    def test_malformed_signatures(self) -> None:
        digest = sign(SECRET, str(NOW), BODY)
        for value in (
            digest,  # no prefix
            "sha256:" + digest,
            "SHA256=" + digest,
            "sha1=" + digest,
            "sha256=" + digest.upper(),
            "sha256=" + digest[:-1],  # 63 hex
            "sha256=" + digest + "0",  # 65 hex
            "sha256=" + digest + digest,  # 128 hex
            "sha256=" + digest[:32],
            "sha256=",
            "sha256=" + "g" * 64,
            "sha256=" + "é" * 64,  # non-ASCII of the right length
            "sha256=" + "é" * 32,
            "sha256=" + digest[:-1] + "\u0660",
            "sha256= " + digest,
            "sha256=" + digest + ",sha256=" + digest,
        ):
            headers = operator_headers()
            headers["X-Svc-Signature-256"] = value
            with self.subTest(signature=value):
                self.assertFalse(self.ok(headers))

    def test_malformed_timestamps(self) -> None:
        for value in ("", "12a", "-5", "+1800000000", "1800000000.0", "1e9", "١٨٠٠٠٠٠٠٠٠", "0x6b49d200", "1" * 5000, "1800000000 1"):
            headers = operator_headers()
            headers["X-Svc-Timestamp"] = value
            # Even a correct HMAC over the malformed timestamp does not pass.
            headers["X-Svc-Signature-256"] = "sha256=" + sign(SECRET, value, BODY)
            with self.subTest(timestamp=value[:20]):
                self.assertFalse(self.ok(headers))

    def test_header_names_are_case_insensitive_any_container(self) -> None:
        good = operator_headers()
        self.assertTrue(self.ok({k.lower(): v for k, v in good.items()}))
        self.assertTrue(self.ok({k.upper(): v for k, v in good.items()}))
        self.assertTrue(self.ok(list(good.items())))
        self.assertTrue(self.ok([(k.encode("latin-1"), v.encode("latin-1")) for k, v in good.items()]))
        self.assertTrue(self.ok({k: [v] for k, v in good.items()}))
        message = email.message.Message()
        for k, v in good.items():
            message[k.lower()] = v
        self.assertTrue(self.ok(message))
        raw = "".join(f"{k}: {v}\r\n" for k, v in good.items()).encode("latin-1") + b"\r\n"
        self.assertTrue(self.ok(http.client.parse_headers(io.BytesIO(raw))))

    def test_surrounding_whitespace_is_not_part_of_a_value(self) -> None:
        good = operator_headers()
        self.assertTrue(self.ok({k: f" {v}\t" for k, v in good.items()}))

    def test_repeated_header_is_refused(self) -> None:
        good = operator_headers()
        pairs = list(good.items()) + [("x-svc-signature-256", good["X-Svc-Signature-256"])]
        self.assertFalse(self.ok(pairs))
        self.assertFalse(self.ok({**good, "X-Svc-Timestamp": [str(NOW), str(NOW)]}))

    def test_never_raises_on_odd_inputs(self) -> None:
        good = operator_headers()
        for headers, body, secret in (
            (None, BODY, SECRET),
            (42, BODY, SECRET),
            ("X-Svc-Timestamp", BODY, SECRET),
            ([("only-one",)], BODY, SECRET),
            ({1: "x"}, BODY, SECRET),
            ({"X-Svc-Timestamp": 1800000000, "X-Svc-Signature-256": good["X-Svc-Signature-256"]}, BODY, SECRET),
            (good, None, SECRET),
            (good, {"id": 1}, SECRET),
            (good, BODY, None),
            (good, BODY, 42),
            (good, "\ud800", SECRET),
        ):
            with self.subTest(headers=repr(headers)[:40], body=repr(body)[:20], secret=repr(secret)):
                self.assertFalse(self.ok(headers, body=body, secret=secret))
        self.assertFalse(verify_webhook(SECRET, good, BODY, tolerance_seconds="300", now=NOW))  # type: ignore[arg-type]
        self.assertFalse(verify_webhook(SECRET, good, BODY, tolerance_seconds=float("nan"), now=NOW))

    def test_a_customer_signature_is_not_an_operator_signature(self) -> None:
        self.assertFalse(self.ok({**customer_headers(), "X-Svc-Timestamp": str(NOW)}))


class CustomerWebhookTest(unittest.TestCase):
    def ok(self, headers: Any, body: Any = BODY, secret: Any = SECRET, **kw: Any) -> bool:
        kw.setdefault("now", NOW)
        result = verify_customer_webhook(secret, headers, body, **kw)
        self.assertIsInstance(result, bool)
        return result

    def with_signature(self, value: str) -> Dict[str, str]:
        return {"X-SVC-Event-ID": "evt_42", "X-SVC-Signature": value}

    def test_valid(self) -> None:
        self.assertTrue(self.ok(customer_headers()))
        self.assertTrue(self.ok(customer_headers(), body=BODY.encode("utf-8"), secret=SECRET.encode("utf-8")))

    def test_parts_in_any_order_with_spaces_and_extra_parts(self) -> None:
        v1 = sign(SECRET, str(NOW), BODY)
        for value in (f"v1={v1},t={NOW}", f" t={NOW} ,  v1={v1} ", f"t={NOW},v0=abc,v1={v1}", f"t={NOW},v1={v1},"):
            with self.subTest(value=value):
                self.assertTrue(self.ok(self.with_signature(value)))

    def test_several_v1_any_may_match(self) -> None:
        v1 = sign(SECRET, str(NOW), BODY)
        other = sign("whsec_rotated", str(NOW), BODY)
        self.assertTrue(self.ok(self.with_signature(f"t={NOW},v1={other},v1={v1}")))
        self.assertTrue(self.ok(self.with_signature(f"t={NOW},v1={v1},v1={other}")))
        self.assertTrue(self.ok(self.with_signature(f"t={NOW},v1=zz,v1={v1}")))
        self.assertFalse(self.ok(self.with_signature(f"t={NOW},v1={other},v1={other}")))

    def test_default_window_is_1800_both_directions(self) -> None:
        self.assertTrue(self.ok(customer_headers(NOW - 1800)))
        self.assertTrue(self.ok(customer_headers(NOW + 1800)))
        self.assertFalse(self.ok(customer_headers(NOW - 1801)))
        self.assertFalse(self.ok(customer_headers(NOW + 1801)))
        self.assertFalse(self.ok(customer_headers(NOW - 301), tolerance_seconds=300))
        self.assertFalse(self.ok(customer_headers(NOW + 301), tolerance_seconds=300))
        self.assertTrue(self.ok(customer_headers(NOW - 300), tolerance_seconds=300))

    def test_tampered_body_and_wrong_secret(self) -> None:
        self.assertFalse(self.ok(customer_headers(), body=BODY.replace("café", "cafe")))
        self.assertFalse(self.ok(customer_headers(), secret="whsec_other"))
        self.assertFalse(self.ok(customer_headers(), secret=b""))

    def test_each_header_missing_or_empty(self) -> None:
        for name in ("X-SVC-Event-ID", "X-SVC-Signature"):
            headers = customer_headers()
            del headers[name]
            with self.subTest(missing=name):
                self.assertFalse(self.ok(headers))
            headers = customer_headers()
            headers[name] = "  "
            with self.subTest(empty=name):
                self.assertFalse(self.ok(headers))

    def test_malformed_signatures(self) -> None:
        v1 = sign(SECRET, str(NOW), BODY)
        for value in (
            f"v1={v1}",  # no t
            f"t={NOW}",  # no v1
            f"t={NOW},t={NOW},v1={v1}",  # t twice
            f"t=,v1={v1}",
            f"t={NOW}a,v1={v1}",
            f"t=-{NOW},v1={v1}",
            f"t={NOW},v1={v1.upper()}",
            f"t={NOW},v1={v1[:-1]}",
            f"t={NOW},v1={v1}0",
            f"t={NOW},v1={'é' * 64}",
            f"t={NOW},garbage,v1={v1}",  # a part without "="
            f"t={NOW};v1={v1}",
            f"T={NOW},V1={v1}",
            "",
        ):
            with self.subTest(value=value):
                self.assertFalse(self.ok(self.with_signature(value)))

    def test_header_names_are_case_insensitive(self) -> None:
        good = customer_headers()
        self.assertTrue(self.ok({k.lower(): v for k, v in good.items()}))
        self.assertTrue(self.ok({"X-Svc-Event-Id": good["X-SVC-Event-ID"], "x-svc-signature": good["X-SVC-Signature"]}))
        self.assertTrue(self.ok(list(good.items())))

    def test_repeated_signature_header_is_refused(self) -> None:
        good = customer_headers()
        self.assertFalse(self.ok(list(good.items()) + [("x-svc-signature", good["X-SVC-Signature"])]))

    def test_never_raises_on_odd_inputs(self) -> None:
        good = customer_headers()
        for headers, body, secret in ((None, BODY, SECRET), (7, BODY, SECRET), (good, 3.5, SECRET), (good, BODY, ["k"])):
            with self.subTest(headers=repr(headers)[:30]):
                self.assertFalse(self.ok(headers, body=body, secret=secret))
        huge = self.with_signature(f"t={'9' * 5000},v1={sign(SECRET, '9' * 5000, BODY)}")
        self.assertFalse(self.ok(huge))

    def test_an_operator_signature_is_not_a_customer_signature(self) -> None:
        self.assertFalse(self.ok({**operator_headers(), "X-SVC-Event-ID": "evt_42"}))


if __name__ == "__main__":
    unittest.main()
