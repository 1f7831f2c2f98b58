"""tests/verify_vectors.py, the cross-check entry point, run as the TS side runs it (offline)."""
from __future__ import annotations

import base64
import hashlib
import hmac
import importlib.util
import json
import subprocess
import sys
import unittest
from pathlib import Path
from typing import Any, Tuple

SCRIPT = Path(__file__).resolve().parent / "verify_vectors.py"
NOW = 1_800_000_000
BODY = '{"id":"evt_1","note":"naïve"}'


def sign(secret: bytes, t: str, body: bytes) -> str:
    return hmac.new(secret, t.encode("ascii") + b"." + body, hashlib.sha256).hexdigest()


def load_script() -> Any:
    spec = importlib.util.spec_from_file_location("verify_vectors", SCRIPT)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def run(vectors: Any) -> Tuple[int, str, str]:
    done = subprocess.run([sys.executable, str(SCRIPT)], input=json.dumps(vectors).encode("utf-8"), capture_output=True, timeout=60)
    return done.returncode, done.stdout.decode("utf-8"), done.stderr.decode("utf-8")


class VerifyVectorsScriptTest(unittest.TestCase):
    def test_answers_each_vector_in_order(self) -> None:
        op_sig = "sha256=" + sign(b"s1", str(NOW), BODY.encode("utf-8"))
        cu_sig = f"t={NOW},v1={sign(b's2', str(NOW), BODY.encode('utf-8'))}"
        binary = b"\x00\xffraw"
        vectors = [
            {"scheme": "operator", "secret": "s1", "headers": {"X-Svc-Timestamp": str(NOW), "X-Svc-Signature-256": op_sig}, "body": BODY, "now": NOW},
            {"scheme": "operator", "secret": "s1", "headers": {"X-Svc-Timestamp": str(NOW), "X-Svc-Signature-256": op_sig}, "body": BODY + " ", "now": NOW},
            {"scheme": "operator", "secret": "s1", "headers": {"X-Svc-Timestamp": str(NOW), "X-Svc-Signature-256": op_sig}, "body": BODY, "now": NOW + 301, "toleranceSeconds": 300},
            {"scheme": "operator", "secret": "s1", "headers": {"X-Svc-Timestamp": str(NOW), "X-Svc-Signature-256": op_sig}, "body": BODY, "now": NOW + 301, "toleranceSeconds": 400},
            {"scheme": "customer", "secret": "s2", "headers": [["x-svc-event-id", "evt_1"], ["x-svc-signature", cu_sig]], "body": BODY, "now": NOW + 1800},
            {"scheme": "customer", "secret": "s2", "headers": {"X-SVC-Event-ID": None, "X-SVC-Signature": cu_sig}, "body": BODY, "now": NOW},
            {"scheme": "customer", "secret": "s2", "headers": {"X-SVC-Event-ID": ["evt_1"], "X-SVC-Signature": [cu_sig]}, "body": BODY, "now": NOW, "name": "lists", "expected": True},
            {
                "scheme": "operator",
                "secretBase64": base64.b64encode(b"\x01\x02").decode(),
                "headers": {"X-Svc-Timestamp": str(NOW), "X-Svc-Signature-256": "sha256=" + sign(b"\x01\x02", str(NOW), binary)},
                "bodyBase64": base64.b64encode(binary).decode(),
                "now": NOW,
            },
        ]
        code, out, err = run(vectors)
        self.assertEqual((code, err), (0, ""))
        self.assertEqual(json.loads(out), [True, False, False, True, True, False, True, True])

    def test_the_clock_is_the_default(self) -> None:
        code, out, _ = run([{"scheme": "operator", "secret": "s", "headers": {"X-Svc-Timestamp": str(NOW), "X-Svc-Signature-256": "sha256=" + sign(b"s", str(NOW), b"{}")}, "body": "{}"}])
        self.assertEqual((code, json.loads(out)), (0, [False]))  # NOW is years away from the clock

    def test_malformed_input_is_an_error_not_false(self) -> None:
        script = load_script()
        for vectors in (
            {"scheme": "operator"},
            [{"scheme": "webhook", "secret": "s", "headers": {}, "body": ""}],
            [{"scheme": "operator", "headers": {}, "body": ""}],
            [{"scheme": "operator", "secret": "s", "body": ""}],
            [{"scheme": "operator", "secret": "s", "headers": {}, "body": "", "bodyBase64": ""}],
            [{"scheme": "operator", "secret": "s", "headers": {"a": 1}, "body": ""}],
            [{"scheme": "operator", "secret": "s", "headers": [["a"]], "body": ""}],
            [{"scheme": "operator", "secret": "s", "headers": {}, "body": "", "now": "1800000000"}],
            [{"scheme": "operator", "secret": "s", "headers": {}, "body": "", "tolerance": 300}],
            [{"scheme": "operator", "secret": "s", "headers": {}, "bodyBase64": "***"}],
            ["vector"],
        ):
            with self.subTest(vectors=json.dumps(vectors)[:60]), self.assertRaises(script.VectorError):
                script.run(vectors)
        # As a process: exit 2, a message, nothing on stdout.
        for stdin in (json.dumps([{"scheme": "webhook"}]).encode("utf-8"), b"not json"):
            done = subprocess.run([sys.executable, str(SCRIPT)], input=stdin, capture_output=True, timeout=60)
            self.assertEqual((done.returncode, done.stdout), (2, b""))
            self.assertIn(b"verify_vectors:", done.stderr)


if __name__ == "__main__":
    unittest.main()
