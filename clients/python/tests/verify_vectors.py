#!/usr/bin/env python3
"""Run webhook test vectors through the Python verifiers, for cross-checks with other clients.

Usage:
    python3 clients/python/tests/verify_vectors.py < vectors.json

Input (stdin, UTF-8 JSON): a list of vectors, each an object:

    {
      "scheme": "operator" | "customer",   # verify_webhook | verify_customer_webhook
      "secret": "whsec_…",                 # the key, as a string (UTF-8); or "secretBase64"
      "headers": {"X-Svc-Timestamp": "…"}, # name → string | [strings] | null (absent);
                                           #   or a list of [name, value] pairs
      "body": "{…}",                       # the raw body as a string (UTF-8); or "bodyBase64"
      "toleranceSeconds": 300,             # optional; null/absent = the scheme's default
      "now": 1800000000,                   # optional unix seconds; null/absent = the clock
      "name": "…", "expected": true        # optional, ignored (the caller's bookkeeping)
    }

Output (stdout): one JSON list of booleans, the verifier's answer for each vector, in order.
A vector that is not of this form is an error: a message naming its index on stderr, exit 2,
nothing on stdout (a broken vector must not read as a False).
"""
from __future__ import annotations

import base64
import json
import os
import sys
from typing import Any, Dict, List

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))

from svc_client import verify_customer_webhook, verify_webhook  # noqa: E402

VERIFIERS = {"operator": verify_webhook, "customer": verify_customer_webhook}
KNOWN = {"scheme", "secret", "secretBase64", "headers", "body", "bodyBase64", "toleranceSeconds", "now", "name", "expected"}


class VectorError(Exception):
    """A vector that is not of the documented form."""


def _bytes_or_text(vector: Dict[str, Any], name: str) -> Any:
    encoded = vector.get(name + "Base64")
    plain = vector.get(name)
    if (encoded is None) == (plain is None):
        raise VectorError(f'exactly one of "{name}" and "{name}Base64" is required')
    if encoded is not None:
        if not isinstance(encoded, str):
            raise VectorError(f'"{name}Base64" must be a string')
        return base64.b64decode(encoded, validate=True)
    if not isinstance(plain, str):
        raise VectorError(f'"{name}" must be a string')
    return plain


def _headers(value: Any) -> Any:
    if isinstance(value, dict):
        for name, item in value.items():
            items = item if isinstance(item, list) else [item]
            if not all(v is None or isinstance(v, str) for v in items):
                raise VectorError(f"header {name!r}: values are strings, lists of strings or null")
        return value
    if isinstance(value, list):
        pairs = []
        for pair in value:
            if not (isinstance(pair, list) and len(pair) == 2 and isinstance(pair[0], str) and (pair[1] is None or isinstance(pair[1], str))):
                raise VectorError("header pairs are [name, value] lists of strings")
            pairs.append((pair[0], pair[1]))
        return pairs
    raise VectorError('"headers" must be an object or a list of [name, value] pairs')


def _number(vector: Dict[str, Any], name: str) -> Any:
    value = vector.get(name)
    if value is not None and (isinstance(value, bool) or not isinstance(value, (int, float))):
        raise VectorError(f'"{name}" must be a number or null')
    return value


def run(vectors: Any) -> List[bool]:
    """The verifier's answer for each vector (VectorError for a malformed one)."""
    if not isinstance(vectors, list):
        raise VectorError("the input must be a JSON list of vectors")
    results = []
    for index, vector in enumerate(vectors):
        try:
            if not isinstance(vector, dict):
                raise VectorError("a vector is an object")
            unknown = set(vector) - KNOWN
            if unknown:
                raise VectorError(f"unknown members {sorted(unknown)}")
            verifier = VERIFIERS.get(vector.get("scheme"))  # type: ignore[arg-type]
            if verifier is None:
                raise VectorError('"scheme" must be "operator" or "customer"')
            options: Dict[str, Any] = {}
            tolerance = _number(vector, "toleranceSeconds")
            if tolerance is not None:
                options["tolerance_seconds"] = tolerance
            now = _number(vector, "now")
            if now is not None:
                options["now"] = now
            if "headers" not in vector:
                raise VectorError('"headers" is required')
            results.append(verifier(_bytes_or_text(vector, "secret"), _headers(vector["headers"]), _bytes_or_text(vector, "body"), **options))
        except VectorError as error:
            raise VectorError(f"vector {index}: {error}") from None
        except ValueError as error:  # base64
            raise VectorError(f"vector {index}: {error}") from None
    return results


def main() -> int:
    """Read the vectors on stdin, print the answers; exit 2 on malformed input."""
    try:
        vectors = json.loads(sys.stdin.buffer.read().decode("utf-8"))
        results = run(vectors)
    except (VectorError, ValueError) as error:
        print(f"verify_vectors: {error}", file=sys.stderr)
        return 2
    print(json.dumps(results))
    return 0


if __name__ == "__main__":
    sys.exit(main())
