"""Python client of svc (``svc serve``), the identity-evidence daemon — standard library only.

    from svc_client import SvcClient, SvcError, RetryPolicy, verify_webhook

    client = SvcClient("http://127.0.0.1:8080", retry=RetryPolicy())
    resolution = client.resolve("did:web:example.com")

One method per operation of openapi.json (the snake_case of its operationId); errors are
:class:`SvcError` (use ``.code``); :class:`RetryPolicy` / :func:`with_retry` retry only 429 and
503 CAPACITY_EXHAUSTED / SERVICE_UNAVAILABLE; ``authorize_or_deny`` / ``verify_tool_or_deny``
never raise for an answer and require trusted roots (or ``any_root=True``); :func:`verify_webhook` / :func:`verify_customer_webhook` check webhook signatures.
``resolve``, ``verify_credential``, ``inspect_mcp`` and ``inspect_a2a`` take ``signed=True`` and return
``{"result", "signature", "jws"}``, the daemon's signature checked by :func:`verify_result_signature`;
``resolve_bundle`` returns ``{"bundle", "bytes", "signature"}``, checked by :func:`verify_bundle_signature`.
The response types (TypedDicts) are in :mod:`svc_client.types`, generated from openapi.json.
"""
from __future__ import annotations

from . import _schema as types
from ._schema import OPERATIONS
from .client import VERSION, DenyResult, StreamFrame, SvcClient
from .errors import CLIENT_BAD_RESPONSE, CLIENT_NETWORK_ERROR, SvcError, parse_retry_after
from .retry import RetryPolicy, with_retry
from .signature import (
    BUNDLE_SIGNATURE_TYP,
    SIGNATURE_HEADER,
    SIGNATURE_PROVES,
    FetchedBundle,
    ResultSignature,
    SignedResult,
    default_key_resolver,
    verify_bundle_signature,
    verify_result_signature,
)
from .sse import SseEvent, SseParser
from .webhooks import CUSTOMER_TOLERANCE_SECONDS, OPERATOR_TOLERANCE_SECONDS, verify_customer_webhook, verify_webhook

__version__ = VERSION

__all__ = [
    "SvcClient",
    "SvcError",
    "CLIENT_NETWORK_ERROR",
    "CLIENT_BAD_RESPONSE",
    "RetryPolicy",
    "with_retry",
    "parse_retry_after",
    "StreamFrame",
    "DenyResult",
    "SseEvent",
    "SseParser",
    "verify_webhook",
    "verify_customer_webhook",
    "verify_result_signature",
    "verify_bundle_signature",
    "BUNDLE_SIGNATURE_TYP",
    "default_key_resolver",
    "ResultSignature",
    "SignedResult",
    "FetchedBundle",
    "SIGNATURE_HEADER",
    "SIGNATURE_PROVES",
    "OPERATOR_TOLERANCE_SECONDS",
    "CUSTOMER_TOLERANCE_SECONDS",
    "OPERATIONS",
    "types",
    "VERSION",
    "__version__",
]
