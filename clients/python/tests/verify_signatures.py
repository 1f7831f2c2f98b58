#!/usr/bin/env python3
"""Run signed-result vectors through the Python verifier, for cross-checks with svc's own.

Usage:
    python3 clients/python/tests/verify_signatures.py < vectors.json

Input (stdin, UTF-8 JSON): a list of vectors, each an object:

    {
      "body": {…},                        # the result, as JSON
      "header": "…..…" | null,            # the svc-signature value (null: none)
      "expectedSigner": "did:…",          # optional
      "keys": {"<kid>": {jwk}} ,          # optional: the keys resolve_key knows (others: None);
                                          #   absent: the default resolver (did:key offline)
      "keyError": "…",                    # optional: resolve_key raises LookupError(keyError)
      "name": "…", "expected": "…"        # optional, ignored (the caller's bookkeeping)
    }

Output (stdout): one JSON list, verify_result_signature's answer for each vector, in order. A
vector that is not of this form is an error: a message naming its index on stderr, exit 2.
"""
from __future__ import annotations

import json
import os
import sys
from typing import Any, Dict, List, Optional

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))

from svc_client import verify_result_signature  # noqa: E402

KNOWN = {"body", "header", "expectedSigner", "keys", "keyError", "name", "expected"}


def run(vector: Dict[str, Any]) -> Any:
    unknown = set(vector) - KNOWN
    if unknown:
        raise ValueError(f"unknown members {sorted(unknown)}")
    resolve_key = None
    if "keyError" in vector:
        message = vector["keyError"]

        def failing(kid: str) -> Optional[Dict[str, Any]]:
            raise LookupError(message)

        resolve_key = failing
    elif "keys" in vector:
        keys = vector["keys"]
        resolve_key = keys.get
    return verify_result_signature(vector["body"], vector["header"], expected_signer=vector.get("expectedSigner"), resolve_key=resolve_key)


def main() -> int:
    vectors = json.loads(sys.stdin.buffer.read().decode("utf-8"))
    answers: List[Any] = []
    for index, vector in enumerate(vectors):
        try:
            answers.append(run(vector))
        except (KeyError, ValueError, TypeError, AttributeError) as error:
            sys.stderr.write(f"vector {index}: {error}\n")
            return 2
    sys.stdout.write(json.dumps(answers, ensure_ascii=False))
    return 0


if __name__ == "__main__":
    sys.exit(main())
