"""SvcClient: one method per operation of openapi.json (the snake_case of its operationId),
standard library only (urllib.request, json)."""
from __future__ import annotations

import http.client
import json
import re
import socket
import urllib.error
import urllib.parse
import urllib.request
from typing import Any, Callable, Dict, Iterator, List, Mapping, Optional, Sequence, Tuple, TypedDict, TypeVar, Union

from . import _schema
from ._schema import (
    A2aInspection,
    Authorization,
    AuthorizeResponse,
    ClaimChallenge,
    ClaimList,
    ClaimVerification,
    CredentialVerification,
    DelegationVerification,
    DereferencingResult,
    DirectoryPage,
    EnrichedResolution,
    FastDidVerdict,
    GraphResponse,
    Health,
    JwsVerification,
    McpInspection,
    MonitorEventList,
    MonitoringStatus,
    ObservationHistory,
    Policy,
    PolicyDecision,
    PresentationVerification,
    ProjectCreated,
    PeriodClosed,
    PlanList,
    PlanSaved,
    ProjectUsage,
    Ready,
    Relationship,
    RetentionPreview,
    SemanticDiff,
    ServiceStatus,
    SubscriptionSaved,
    TenantBilling,
    TenantCreated,
    TenantList,
    TenantOwners,
    VcApiVerificationResult,
    VcApiVerifyOptions,
    VcApiVerifyPresentationOptions,
    DeliveryAttemptList,
    WatchCheck,
    WatchCreated,
    WatchList,
    WatchWebhook,
)
from .errors import CLIENT_BAD_RESPONSE, CLIENT_NETWORK_ERROR, SvcError, parse_retry_after
from .retry import RetryPolicy, with_retry
from .signature import FetchedBundle, KeyResolver, SignedResult, verify_bundle_signature, verify_result_signature
from .sse import SseParser

__all__ = ["SvcClient", "StreamFrame", "DenyResult", "VERSION"]

#: The client's version (the svc release it was generated for).
VERSION = "0.1.0"

T = TypeVar("T")

_READ_CHUNK = 64 * 1024
_JSON_ACCEPT = "application/json, application/problem+json"
#: The media type of an evidence bundle (GET /v1/resolve/{did}?bundle=true).
_BUNDLE_MEDIA_TYPE = "application/vnd.svc.evidence-bundle+json"
# Pages as HTML; problems as data (problem+json), not as problem pages.
_PAGE_ACCEPT = "text/html, application/problem+json"
# What an operator token may hold: visible ASCII, as the daemon reads `Authorization: Bearer <token>`.
_TOKEN_SYNTAX = re.compile(r"[\x21-\x7e]+")


class StreamFrame(TypedDict):
    """One frame of :meth:`SvcClient.stream`: ``event`` is ``"stage"`` (data: a TraceStage),
    ``"result"`` (an EnrichedResolution), ``"error"`` (a Problem, with its trace) or
    ``"done"`` (``{}``); ``data`` is the frame's JSON, parsed."""

    event: str
    data: Any


class _DenyResultRequired(TypedDict):
    decision: str
    authorized: bool
    reason: str


class DenyResult(_DenyResultRequired, total=False):
    """What :meth:`SvcClient.authorize_or_deny` and :meth:`SvcClient.verify_tool_or_deny`
    return: ``decision`` ``"ALLOW"`` or ``"DENY"``, ``authorized`` (True only with ALLOW),
    ``reason``; ``authorization`` when the daemon answered one; ``error`` (an SvcError) when
    the call failed."""

    authorization: Authorization
    error: SvcError


class _NoRedirect(urllib.request.HTTPRedirectHandler):
    """Never follows a redirect: svc's routes do not redirect to one another, and a 303 of the
    W3C binding (a service endpoint a DID URL selected) is a result, not a place to go."""

    def redirect_request(self, req, fp, code, msg, headers, newurl):  # type: ignore[no-untyped-def]
        return None


class SvcClient:
    """A client of ``svc serve`` (docs/clients.md in the svc repository): JSON in and out,
    problems raised as :class:`SvcError`.

    Args:
        base_url: the daemon's origin, e.g. ``http://127.0.0.1:8080`` (a path prefix is kept).
        timeout: seconds for connecting and for each read (a stream waits at most this long for
            its next bytes); a timeout is a CLIENT_NETWORK_ERROR.
        retry: a :class:`RetryPolicy` applied to every call (default: no retry).
        headers: extra request headers sent with every call (e.g. for a gateway in front).
        admin_token: the daemon's operator token (its SVC_ADMIN_TOKEN), sent as
            ``Authorization: Bearer <token>`` on the monitoring calls only (``create_watch``,
            ``list_watches``, ``delete_watch``, ``list_monitor_events``, ``monitoring_status``),
            never on the public routes; it appears in no error message nor in ``repr``. The
            commercial control calls (``create_tenant``, ``list_tenants``, ``create_project``,
            ``attach_owner``, ``remove_owner``, ``project_usage``) and ``metrics`` send it too.
        project_key: a project API key (``svck_…``, the daemon's commercial mode), sent as
            ``Authorization: Bearer <key>`` on the public calls only (never on the operator
            calls): the project's budget is charged and its usage counted. An unknown, revoked
            or rotated key is SvcError UNAUTHORIZED (401), never anonymous.
        session_cookie: owner sessions, with ``base_url`` the loopback cookie gateway (``svc serve
            --gateway-port``): the ``svc_session`` cookie's value :meth:`sign_in` returned, sent as
            ``Cookie: svc_session=<value>`` on the owner-session calls only; never in ``repr``.
        origin: the gateway's configured origin, sent as ``Origin`` on the owner-session calls
            (writes need it); default: the origin of ``base_url``.

    Identifiers are percent-encoded whole into the path (``quote(did, safe='')``): the daemon
    decodes them exactly once, so a did:web with ``%3A`` survives. Every method raises
    :class:`SvcError` — never an ``HTTPError`` or ``URLError`` — except the ``*_or_deny``
    helpers, which never raise for an answer (they raise TypeError, before any request, when
    called without trusted roots or ``any_root=True``).
    """

    def __init__(
        self,
        base_url: str,
        timeout: float = 60.0,
        retry: Optional[RetryPolicy] = None,
        headers: Optional[Mapping[str, str]] = None,
        admin_token: Optional[str] = None,
        project_key: Optional[str] = None,
        session_cookie: Optional[str] = None,
        origin: Optional[str] = None,
    ) -> None:
        """Check the base URL (http or https, a host) and the operator token, and keep the options."""
        if not isinstance(base_url, str):
            raise TypeError("base_url must be a string such as http://127.0.0.1:8080")
        parsed = urllib.parse.urlsplit(base_url)
        if parsed.scheme not in ("http", "https") or not parsed.netloc:
            raise ValueError(f"base_url must be an http(s) URL with a host, not {base_url!r}")
        if parsed.query or parsed.fragment:
            raise ValueError("base_url must not carry a query or a fragment")
        # Checked here, so that no later failure (a header http.client refuses) can quote the token.
        if admin_token is not None and not isinstance(admin_token, str):
            raise TypeError("admin_token must be a string")
        if admin_token is not None and not _TOKEN_SYNTAX.fullmatch(admin_token):
            raise ValueError("admin_token must be a non-empty string of visible ASCII characters (no spaces)")
        if project_key is not None and not isinstance(project_key, str):
            raise TypeError("project_key must be a string")
        if project_key is not None and not _TOKEN_SYNTAX.fullmatch(project_key):
            raise ValueError("project_key must be a non-empty string of visible ASCII characters (no spaces)")
        if session_cookie is not None and (not isinstance(session_cookie, str) or not re.fullmatch(r"[A-Za-z0-9_-]{43}", session_cookie)):
            raise ValueError("session_cookie must be the 43 base64url characters of the svc_session cookie")
        if origin is not None and (not isinstance(origin, str) or not re.fullmatch(r"https?://[^/\s]+", origin)):
            raise ValueError("origin must be an origin: scheme://host[:port]")
        self.base_url = base_url.rstrip("/")
        self._session_cookie = session_cookie
        self.origin = origin if origin is not None else f"{parsed.scheme}://{parsed.netloc}"
        self.timeout = timeout
        self.retry = retry
        self.headers: Dict[str, str] = dict(headers or {})
        self._admin_token = admin_token
        self._project_key = project_key
        self._opener = urllib.request.build_opener(_NoRedirect())

    def with_retry(self, retry: RetryPolicy) -> "SvcClient":
        """A new client with the same options (the operator token included) and this retry policy."""
        return SvcClient(
            self.base_url,
            timeout=self.timeout,
            retry=retry,
            headers=self.headers,
            admin_token=self._admin_token,
            session_cookie=self._session_cookie,
            origin=self.origin,
            project_key=self._project_key,
        )

    def __repr__(self) -> str:
        return f"SvcClient({self.base_url!r}, timeout={self.timeout!r}, retry={self.retry!r})"

    # -- service probes ---------------------------------------------------------------------

    def health(self) -> Health:
        """GET /health: name, version, supported methods, standards; never rate limited."""
        return self._call("health")

    def ready(self) -> Ready:
        """GET /ready: storage and schema ready. A 503 NOT_READY raises SvcError like any other."""
        return self._call("ready")

    def status(self) -> ServiceStatus:
        """GET /v1/status: component status (standard budget)."""
        return self._call("status")

    def metrics(self) -> str:
        """GET /metrics: the daemon's Prometheus metrics, as the text exposition format. Operator
        only (``admin_token``), direct profile; SvcError NOT_FOUND (404) when its metrics are off."""
        return self._call("metrics", default_accept="text/plain, application/problem+json", text=True, operator=True)

    def open_api(self) -> Dict[str, Any]:
        """GET /openapi.json: the OpenAPI 3.1 document the daemon serves."""
        return self._call("openApi")

    # -- resolution -----------------------------------------------------------------------

    def resolve(
        self,
        did: str,
        no_cache: bool = False,
        version_id: Optional[str] = None,
        version_time: Optional[str] = None,
        version_number: Optional[int] = None,
        signed: bool = False,
        expected_signer: Optional[str] = None,
        resolve_key: Optional[KeyResolver] = None,
    ) -> Any:
        """GET /v1/resolve/{did}: the enriched resolution.

        A deactivated DID (410) is a result, returned with ``verdict.outcome`` DEACTIVATED.
        ``no_cache`` bypasses and refreshes the cache; ``version_*`` select a did:webvh version.
        ``signed=True``: a :class:`SignedResult` ``{"result", "signature", "jws"}`` instead, the
        daemon's signature checked here (see :meth:`_signed_call`).
        """
        query = {
            "noCache": _flag(no_cache),
            "versionId": version_id,
            "versionTime": version_time,
            "versionNumber": _number(version_number),
        }
        if signed:
            return self._signed_call("resolve", {"did": did}, query, None, expected_signer, resolve_key)
        return self._call("resolve", {"did": did}, query)

    def resolve_bundle(
        self,
        did: str,
        version_id: Optional[str] = None,
        version_time: Optional[str] = None,
        version_number: Optional[int] = None,
        expected_signer: Optional[str] = None,
        resolve_key: Optional[KeyResolver] = None,
    ) -> FetchedBundle:
        """GET /v1/resolve/{did}?bundle=true: the evidence bundle of a fresh resolution
        (docs/evidence.md#evidence-bundles) as a :class:`FetchedBundle` ``{"bundle", "bytes",
        "signature"}``: the bytes exactly as served, and the check of the bundle's embedded
        signature by :func:`verify_bundle_signature` (the signer's key found by ``resolve_key``,
        never asked of the daemon), None when the bundle is unsigned. Pin ``expected_signer`` (the
        DID /health names as signer) to accept only the svc instance you trust. A deactivated DID
        (410) is a bundle too."""
        query = {"versionId": version_id, "versionTime": version_time, "versionNumber": _number(version_number), "bundle": "true"}
        url = self._url(_schema.OPERATIONS["resolve"], {"did": did}, query)
        headers: Dict[str, Optional[str]] = {}
        if self._project_key is not None:
            headers["Authorization"] = f"Bearer {self._project_key}"

        def fetch() -> Tuple[Dict[str, Any], bytes]:
            status, response_headers, raw = self._send_read("GET", url, None, {"Accept": f"{_BUNDLE_MEDIA_TYPE}, application/problem+json"}, headers)
            retry_after = _retry_after(response_headers)
            if status not in (200, 410):
                raise _error_of(status, raw, retry_after)
            media = ((response_headers.get("Content-Type") if response_headers is not None else None) or "").split(";")[0].strip().lower()
            if media != _BUNDLE_MEDIA_TYPE:
                raise SvcError.client(CLIENT_BAD_RESPONSE, f"the answer ({status}) is {media or 'of no content type'}, not {_BUNDLE_MEDIA_TYPE}", status, retry_after)
            bundle = _json_object(raw, status, retry_after)
            if bundle.get("format") != "svc-evidence-bundle":
                raise SvcError.client(CLIENT_BAD_RESPONSE, f"the answer ({status}) is JSON that is not an evidence bundle", status, retry_after)
            return bundle, raw

        bundle, raw = self._retrying(fetch)
        signature = verify_bundle_signature(bundle, expected_signer=expected_signer, resolve_key=resolve_key)
        return {"bundle": bundle, "bytes": raw, "signature": signature}

    def stream(self, did: str, no_cache: bool = False) -> Iterator[StreamFrame]:
        """GET /v1/stream/{did}: the live resolution as a generator of frames.

        Yields ``{"event": "stage", "data": TraceStage}`` as each stage completes, then one
        ``result`` (EnrichedResolution) or ``error`` (the problem, with its trace), then
        ``done`` (``{}``), and stops. The response is read incrementally (a frame is yielded as
        soon as its bytes arrive). A problem answered before the stream starts (400, 429, 503)
        raises SvcError here, at the call; the retry policy applies to that opening only. A
        stream that breaks raises CLIENT_NETWORK_ERROR; one that ends before ``done``, or whose
        data is not JSON, raises CLIENT_BAD_RESPONSE. Iterate to the end or call ``close()``
        on the generator to release the connection early.
        """
        op = _schema.OPERATIONS["stream"]
        url = self._url(op, {"did": did}, {"noCache": _flag(no_cache)})
        response = self._retrying(lambda: self._open_stream(url))
        return self._frames(response)

    def dereference(self, did_url: str) -> DereferencingResult:
        """GET /v1/dereference/{didUrl}: dereference a DID URL (``did#fragment``,
        ``did?service=…``, ``did?versionId=…``). The DID URL is percent-encoded whole."""
        return self._call("dereference", {"didUrl": did_url})

    def fast_verify_did(self, did: str, no_cache: bool = False) -> FastDidVerdict:
        """GET /v1/fast-verify/did/{did}: the compact verdict, cached when fresh."""
        return self._call("fastVerifyDid", {"did": did}, {"noCache": _flag(no_cache)})

    def graph(self, did: str, no_cache: bool = False) -> GraphResponse:
        """GET /v1/graph/{did}: the evidence graph."""
        return self._call("graph", {"did": did}, {"noCache": _flag(no_cache)})

    def history(self, did: str) -> ObservationHistory:
        """GET /v1/history/{did}: the observations recorded for the DID."""
        return self._call("history", {"did": did})

    def kept_log(self, did: str) -> str:
        """GET /v1/kept-log/{did}: the did:webvh log the daemon kept (JSON Lines, each line as the
        host published it), to verify again after the host deleted or rewrote it. None kept raises
        SvcError NOT_FOUND (404)."""
        return self._call("keptLog", {"did": did}, default_accept="application/jsonl, application/problem+json", text=True)

    def diff(self, did: str, from_: Optional[str] = None, to: Optional[str] = None) -> SemanticDiff:
        """GET /v1/diff/{did}: the semantic diff of two observed documents.

        ``from_`` (the older document hash, or a unique prefix of 8+ hex digits; ``from`` is a
        Python keyword) and ``to``; without them, the latest two distinct observations. Fewer
        than two raises SvcError NOT_FOUND (404).
        """
        return self._call("diff", {"did": did}, {"from": from_, "to": to})

    def resolve_w3c(
        self,
        did: str,
        accept: Optional[str] = None,
        no_cache: bool = False,
        version_id: Optional[str] = None,
        version_time: Optional[str] = None,
        version_number: Optional[int] = None,
    ) -> Dict[str, Any]:
        """GET /1.0/identifiers/{did}: the W3C DID Resolution HTTPS binding.

        Returns the parsed body: the DID document (no ``accept``, or ``application/did``…), the
        resolution result (``accept="application/did-resolution"``) or, for a DID URL, the
        dereferencing result or its content stream; a service endpoint asked for as
        ``application/did-url-dereferencing`` or ``text/uri-list`` is ``{"status": 303,
        "location": <endpoint>}`` (the redirect is not followed). A deactivated DID (410) is a result. An error status raises
        SvcError carrying the problem embedded in ``didResolutionMetadata.error`` (or the
        problem+json body, e.g. 406 REPRESENTATION_NOT_SUPPORTED).
        """
        query = {
            "noCache": _flag(no_cache),
            "versionId": version_id,
            "versionTime": version_time,
            "versionNumber": _number(version_number),
        }
        headers = {"Accept": accept} if accept is not None else None
        return self._call("resolveW3c", {"did": did}, query, headers=headers, default_accept=None)

    def resolve_w3c_post(
        self,
        did: str,
        accept: Optional[str] = None,
        no_cache: Optional[bool] = None,
        version_id: Optional[str] = None,
        version_time: Optional[str] = None,
        version_number: Optional[int] = None,
    ) -> Dict[str, Any]:
        """POST /1.0/identifiers/{did}: as :meth:`resolve_w3c`, the options in the JSON body
        (``{accept?, noCache?, versionId?, versionTime?, versionNumber?}``; only those given)."""
        body = _compact(
            {
                "accept": accept,
                "noCache": no_cache,
                "versionId": version_id,
                "versionTime": version_time,
                "versionNumber": version_number,
            }
        )
        return self._call("resolveW3cPost", {"did": did}, body=body, default_accept=None)

    # -- verification ---------------------------------------------------------------------

    def verify_credential(
        self,
        credential: Union[Mapping[str, Any], str],
        expected_audience: Optional[str] = None,
        signed: bool = False,
        expected_signer: Optional[str] = None,
        resolve_key: Optional[KeyResolver] = None,
        expected_nonce: Optional[str] = None,
        trusted_issuers: Optional[Sequence[str]] = None,
        jsonld: Optional[bool] = None,
    ) -> Any:
        """POST /v1/credentials/verify: a credential object, its raw JSON text or a compact JWT.

        A failed check is a 200 result (``status`` other than VALID, ``valid`` False), never
        raised; only a request the daemon refuses raises (e.g. 400 INVALID_REQUEST).
        ``signed=True``: a :class:`SignedResult` instead, the signature checked here.
        ``expected_nonce``: the nonce an SD-JWT VC's KB-JWT must carry (check ``kb.nonce``).
        ``trusted_issuers`` (DIDs, ``did:web:*.example.com``, ``did:web:example.com:*``): the
        result then carries ``issuerTrust`` (PASS, FAIL or INDETERMINATE) beside an unchanged
        ``status``; an empty list is INDETERMINATE.
        ``jsonld``: True requires JSON-LD processing (INVALID_OPTIONS on a daemon without
        SVC_JSONLD=on), False turns it off for this request; None, the daemon's setting.
        """
        body = _compact(
            {
                "credential": credential,
                "expectedAudience": expected_audience,
                "expectedNonce": expected_nonce,
                "trustedIssuers": _strings(trusted_issuers),
                "jsonld": jsonld,
            }
        )
        if signed:
            return self._signed_call("verifyCredential", None, {}, body, expected_signer, resolve_key)
        return self._call("verifyCredential", body=body)

    def verify_credential_vc_api(
        self, verifiable_credential: Mapping[str, Any], options: Optional[Union[VcApiVerifyOptions, Mapping[str, Any]]] = None
    ) -> VcApiVerificationResult:
        """POST /credentials/verify, the W3C VC-API binding: a credential object or an
        EnvelopedVerifiableCredential (``id``: ``data:application/vc+jwt,<JWT>``).

        The VerificationResult is returned whether verified (200) or not (400 with ``verified``
        False, the reasons in ``errors``); a request the daemon refuses (400 problem+json,
        e.g. INVALID_REQUEST) raises SvcError.
        """
        result = self._call("verifyCredentialVcApi", body=_compact({"verifiableCredential": verifiable_credential, "options": options}))
        if isinstance(result.get("verified"), bool):
            return result
        # A 400 that is not a result is a refused request: its problem.
        raise _error_of(400, json.dumps(result).encode("utf-8"), None)

    def verify_presentation(
        self,
        presentation: Union[Mapping[str, Any], str],
        challenge: Optional[str] = None,
        domain: Optional[str] = None,
        expected_audience: Optional[str] = None,
        expected_nonce: Optional[str] = None,
        trusted_issuers: Optional[Sequence[str]] = None,
        require_holder_binding: Optional[bool] = None,
        signed: bool = False,
        expected_signer: Optional[str] = None,
        resolve_key: Optional[KeyResolver] = None,
    ) -> Any:
        """POST /v1/presentations/verify: a presentation object, its raw JSON text or a compact
        JWT (vp+jwt, VC-JWT 1.1), and every credential in it.

        ``challenge`` and ``domain`` are yours: given, a proof without them is INVALID; not
        given, they are not checked (the result's limitations say so). ``expected_audience`` and
        ``expected_nonce`` go to each credential (JWT ``aud``, SD-JWT VC KB-JWT);
        ``trusted_issuers`` gives each credential an ``issuerTrust``. A failed check is a 200
        result (``status`` other than VALID), never raised; only a request the daemon refuses
        raises. ``signed=True``: a :class:`SignedResult` instead, the signature checked here.
        """
        body = _compact(
            {
                "presentation": presentation,
                "challenge": challenge,
                "domain": domain,
                "expectedAudience": expected_audience,
                "expectedNonce": expected_nonce,
                "trustedIssuers": None if trusted_issuers is None else list(trusted_issuers),
                "requireHolderBinding": require_holder_binding,
            }
        )
        if signed:
            return self._signed_call("verifyPresentation", None, {}, body, expected_signer, resolve_key)
        return self._call("verifyPresentation", body=body)

    def verify_presentation_vc_api(
        self,
        verifiable_presentation: Mapping[str, Any],
        options: Optional[Union[VcApiVerifyPresentationOptions, Mapping[str, Any]]] = None,
    ) -> VcApiVerificationResult:
        """POST /presentations/verify, the W3C VC-API binding: a presentation object or an
        EnvelopedVerifiablePresentation (``id``: ``data:application/vp+jwt,<JWT>``); ``options``
        may carry ``challenge`` and ``domain``.

        The VerificationResult is returned whether verified (200) or not (400 with ``verified``
        False, the reasons in ``errors``); a request the daemon refuses (400 problem+json)
        raises SvcError.
        """
        result = self._call("verifyPresentationVcApi", body=_compact({"verifiablePresentation": verifiable_presentation, "options": options}))
        if isinstance(result.get("verified"), bool):
            return result
        raise _error_of(400, json.dumps(result).encode("utf-8"), None)

    def fast_verify_jws(self, jws: str, relationship: Optional[Relationship] = None) -> JwsVerification:
        """POST /v1/fast-verify/jws: a compact JWS whose ``kid`` is a DID URL; the key must be
        in ``relationship`` (default assertionMethod, then authentication)."""
        return self._call("fastVerifyJws", body=_compact({"jws": jws, "relationship": relationship}))

    def evaluate_policy(
        self,
        did: str,
        policy: Union[Policy, Mapping[str, Any]],
        credential: Optional[Union[Mapping[str, Any], str]] = None,
    ) -> PolicyDecision:
        """POST /v1/policies/evaluate: ``policy`` (``{name?, rules}``) against ``did`` and an
        optional credential."""
        return self._call("evaluatePolicy", body=_compact({"did": did, "policy": policy, "credential": credential}))

    # -- agents ---------------------------------------------------------------------------

    def verify_delegation(
        self,
        chain: Sequence[str],
        trusted_roots: Optional[Sequence[str]] = None,
        register: Optional[bool] = None,
    ) -> DelegationVerification:
        """POST /v1/agents/verify-delegation: verify a receipt chain (root first); with
        ``register=True`` a VALID chain is stored for :meth:`verify_tool`."""
        body = _compact({"chain": _strings(chain), "trustedRoots": _strings(trusted_roots), "register": register})
        return self._call("verifyDelegation", body=body)

    def authorize(
        self, chain: Sequence[str], tool: str, trusted_roots: Optional[Sequence[str]] = None
    ) -> AuthorizeResponse:
        """POST /v1/agents/authorize: may the chain's leaf call ``tool``? Stateless.

        Any error must be read as DENY: prefer :meth:`authorize_or_deny`.
        """
        body = _compact({"chain": _strings(chain), "tool": tool, "trustedRoots": _strings(trusted_roots)})
        return self._call("authorize", body=body)

    def verify_tool(self, agent: str, tool: str, root: Optional[str] = None) -> Authorization:
        """GET /v1/agents/verify-tool: may ``agent`` call ``tool``, by a registered chain
        (optionally from ``root``)? Prefer :meth:`verify_tool_or_deny`."""
        return self._call("verifyTool", query={"agent": agent, "tool": tool, "root": root})

    def authorize_or_deny(
        self,
        chain: Sequence[str],
        tool: str,
        trusted_roots: Optional[Sequence[str]] = None,
        *,
        any_root: bool = False,
    ) -> DenyResult:
        """:meth:`authorize`, never raising for an answer: ALLOW only when the daemon answered
        200 with ``authorization.decision == "ALLOW"`` and ``authorized is True``; any error
        (network, problem, bad body, unexpected shape) is DENY with ``error`` and a ``reason``
        naming its code and detail.

        ``trusted_roots`` (one or more DIDs) or ``any_root=True`` (any root, on purpose) is
        required: without either — anyone can mint a chain rooted in a DID of their own — it
        raises TypeError before any request (fail closed)."""
        _require_roots("authorize_or_deny", "trusted_roots", trusted_roots, any_root)
        try:
            answer = self.authorize(chain, tool, trusted_roots)
        except Exception as error:  # noqa: BLE001 — rule 4: every failure is DENY
            return _deny_error(error)
        authorization = answer.get("authorization") if isinstance(answer, dict) else None
        return _decide(authorization)

    def verify_tool_or_deny(self, agent: str, tool: str, root: Optional[str] = None, *, any_root: bool = False) -> DenyResult:
        """:meth:`verify_tool`, never raising for an answer: ALLOW only for a 200 Authorization
        with ``decision == "ALLOW"`` and ``authorized is True``; anything else is DENY.

        ``root`` (the delegation root to require) or ``any_root=True`` is required: without
        either it raises TypeError before any request (fail closed)."""
        _require_roots("verify_tool_or_deny", "root", root, any_root)
        try:
            answer = self.verify_tool(agent, tool, root)
        except Exception as error:  # noqa: BLE001 — rule 4: every failure is DENY
            return _deny_error(error)
        return _decide(answer)

    # -- inspection -----------------------------------------------------------------------

    def inspect_mcp(
        self, endpoint: str, signed: bool = False, expected_signer: Optional[str] = None, resolve_key: Optional[KeyResolver] = None
    ) -> Any:
        """GET /v1/mcp/inspect: inspect an MCP server (tools, prompts, resources, resource
        templates, risk signals, drift, auth).

        AUTH_REQUIRED is a result. An endpoint that fails, times out or does not answer as an
        MCP server raises SvcError UPSTREAM_UNAVAILABLE (502; the detail names what was found),
        a 404 NOT_FOUND; never a DID code. ``signed=True``: a :class:`SignedResult` instead.
        """
        if signed:
            return self._signed_call("inspectMcp", None, {"endpoint": endpoint}, None, expected_signer, resolve_key)
        return self._call("inspectMcp", query={"endpoint": endpoint})

    def inspect_mcp_with_baseline(self, endpoint: str, baseline: Mapping[str, Any]) -> McpInspection:
        """POST /v1/mcp/inspect: as ``inspect_mcp``, compared with an approved baseline (the JSON
        of a file ``svc mcp approve`` wrote) instead of the last stored inventory.

        ``drift["baseline"]`` is set and the drift check is FAIL on any difference (a result, not
        an error). A baseline the daemon cannot use, or with no entry approved from this endpoint,
        raises SvcError INVALID_REQUEST.
        """
        return self._call("inspectMcpWithBaseline", body={"endpoint": endpoint, "baseline": baseline})

    def inspect_a2a(self, url: str, signed: bool = False, expected_signer: Optional[str] = None, resolve_key: Optional[KeyResolver] = None) -> Any:
        """GET /v1/a2a/inspect: inspect an A2A agent card (validation and signatures).
        ``signed=True``: a :class:`SignedResult` instead."""
        if signed:
            return self._signed_call("inspectA2a", None, {"url": url}, None, expected_signer, resolve_key)
        return self._call("inspectA2a", query={"url": url})

    def inspect_a2a_with_baseline(self, url: str, baseline: Mapping[str, Any]) -> A2aInspection:
        """POST /v1/a2a/inspect: as ``inspect_a2a``, the card compared with an approved baseline
        (the JSON of a file ``svc a2a approve`` wrote): ``baseline`` is set and the ``drift``
        check is FAIL on any difference."""
        return self._call("inspectA2aWithBaseline", body={"url": url, "baseline": baseline})

    # -- web dossier ----------------------------------------------------------------------

    def home_page(self) -> str:
        """GET /: the front page, as HTML."""
        return self._call("homePage", default_accept=_PAGE_ACCEPT, text=True)

    def dossier_page(self, did: str, no_cache: bool = False, from_: Optional[str] = None, to: Optional[str] = None) -> str:
        """GET /d/{did}: the dossier of a DID as an HTML page (its data is ``resolve``'s result).

        ``from_`` and ``to`` pick the observations the time machine compares (document hashes or
        unique prefixes of 8+ hex characters). A deactivated DID (410) is a page too.
        """
        query = {"noCache": _flag(no_cache), "from": from_, "to": to}
        return self._call("dossierPage", {"did": did}, query, default_accept=_PAGE_ACCEPT, text=True)

    def mcp_inspection_page(self, endpoint: Optional[str] = None) -> str:
        """GET /mcp?endpoint=…: the web view of an MCP inspection as an HTML page (its data is
        ``inspect_mcp``'s result, and it counts as an inspection for drift); without ``endpoint``,
        the page with the form. Problems raise SvcError, as for ``inspect_mcp``.
        """
        return self._call("mcpInspectionPage", query={"endpoint": endpoint}, default_accept=_PAGE_ACCEPT, text=True)

    def web_asset(self, name: str) -> str:
        """GET /assets/{name}: a stylesheet, script or the icon (SVG) of the pages, by the name they link it with."""
        return self._call("webAsset", {"name": name}, default_accept="text/css, text/javascript, image/svg+xml, application/problem+json", text=True)

    # -- operator monitoring (admin_token) ------------------------------------------------

    def create_watch(
        self,
        did: Optional[str],
        webhook_url: str,
        interval_seconds: Optional[int] = None,
        *,
        mcp_endpoint: Optional[str] = None,
        a2a_card: Optional[str] = None,
        baseline: Optional[Dict[str, Any]] = None,
    ) -> WatchCreated:
        """POST /v1/monitoring/watches: watch ``did`` — or, with ``did`` None, the MCP endpoint
        ``mcp_endpoint`` (its tools, prompts and resources) or the A2A card ``a2a_card`` (an origin or
        card URL), optionally against ``baseline`` (an approved svc-mcp-baseline / svc-a2a-baseline
        file's JSON, which the first check compares with); changes are posted to ``webhook_url``
        (https, an address the daemon's egress policy allows), checked every ``interval_seconds``
        (60 to 86400; the daemon's default when None). Exactly one subject: else SvcError
        INVALID_REQUEST (400).

        Returns ``{"watch", "secret", "note"}``: the signing secret (``whsec_…``) is shown this
        once. Operator only: without ``admin_token`` SvcError UNAUTHORIZED (401); MONITORING_DISABLED
        (501) when the daemon has no operator token.
        """
        if interval_seconds is not None and (isinstance(interval_seconds, bool) or not isinstance(interval_seconds, int)):
            raise TypeError("interval_seconds must be an integer")
        body = _compact(
            {
                "did": did,
                "mcpEndpoint": mcp_endpoint,
                "a2aCard": a2a_card,
                "webhookUrl": webhook_url,
                "intervalSeconds": interval_seconds,
                "baseline": baseline,
            }
        )
        return self._call("createWatch", body=body, operator=True)

    def list_watches(self) -> WatchList:
        """GET /v1/monitoring/watches: the active watches, oldest first (webhook URLs redacted to
        origin and path; never a secret). Operator only."""
        return self._call("listWatches", operator=True)

    def check_watch(self, watch_id: str) -> WatchCheck:
        """POST /v1/monitoring/watches/{id}/check: check the watch now, as the poller does.
        Returns ``{"eventId", "changed", "delivery"}`` (the first check of a watch only sets its
        baseline); SvcError NOT_FOUND (404) when no active watch has this id. Operator only."""
        return self._call("checkWatch", {"id": watch_id}, operator=True)

    def delete_watch(self, watch_id: str) -> None:
        """DELETE /v1/monitoring/watches/{id}: stop the watch (its queued events are cancelled).
        Returns None (204); SvcError NOT_FOUND (404) when no active watch has this id. Operator only."""
        return self._call("deleteWatch", {"id": watch_id}, operator=True)

    def enable_watch_webhook(self, watch_id: str, webhook_url: Optional[str] = None) -> WatchWebhook:
        """POST /v1/monitoring/watches/{id}/webhook: enable the watch's webhook again after a
        receiver answered 410 Gone (``watch["webhookDisabled"]`` says when and why), optionally at
        a new ``webhook_url`` (egress-checked as at registration). Returns ``{"watch"}``; events
        from the next check on are delivered. SvcError NOT_FOUND (404) when no active watch has
        this id. Operator only."""
        return self._call("enableWatchWebhook", {"id": watch_id}, body=_compact({"webhookUrl": webhook_url}), operator=True)

    def list_event_attempts(self, event_id: str) -> DeliveryAttemptList:
        """GET /v1/monitoring/events/{id}/attempts: every delivery attempt of the event
        (``evt_<n>``), oldest first: the receiver's status, the decision (DELIVERED, RETRY,
        DEAD_LETTER, WEBHOOK_DISABLED, CANCELLED), a one-line detail and the next attempt's time.
        Returns ``{"eventId", "attempts"}``; SvcError NOT_FOUND (404) for an unknown event.
        Operator only."""
        return self._call("listEventAttempts", {"id": event_id}, operator=True)

    def list_monitor_events(self, watch_id: Optional[str] = None) -> MonitorEventList:
        """GET /v1/monitoring/events: the monitor events and their delivery state, newest first;
        ``watch_id`` narrows them to one watch (a removed one's included). Operator only."""
        return self._call("listMonitorEvents", query={"watchId": watch_id}, operator=True)

    def monitoring_status(self) -> MonitoringStatus:
        """GET /v1/monitoring/status: the gauges of the monitoring tables (counts and limits).
        Operator only."""
        return self._call("monitoringStatus", operator=True)

    def monitoring_retention_preview(self, before: str) -> RetentionPreview:
        """GET /v1/monitoring/retention-preview: how many observations, MCP observations and
        settled monitor events a cleanup could remove strictly before ``before`` (RFC 3339 with
        seconds and an offset), with the rules that keep rows. Read only: nothing is deleted.
        Operator only."""
        return self._call("monitoringRetentionPreview", query={"before": before}, operator=True)

    def replay_monitor_event(self, event_id: str) -> Dict[str, Any]:
        """POST /v1/monitoring/events/{id}/replay: a new delivery of a DEAD_LETTER or CANCELLED
        event (``evt_<n>``; the same id and bytes, five fresh attempts). Returns ``{"event"}`` (202);
        SvcError CONFLICT (409) when the event is still on its way or delivered, its watch was
        removed or its webhook is disabled; NOT_FOUND (404). svc never replays by itself. Operator only."""
        return self._call("replayMonitorEvent", {"id": event_id}, operator=True)

    def replay_watch(self, watch_id: str, since: str) -> Dict[str, Any]:
        """POST /v1/monitoring/watches/{id}/replay: replays every DEAD_LETTER event of the watch
        created at or after ``since`` (RFC 3339 with seconds and an offset). Returns
        ``{"replayed", "count"}`` (202). Operator only."""
        return self._call("replayWatch", {"id": watch_id}, body={"since": since}, operator=True)

    def retention_preview(self, before: str) -> RetentionPreview:
        """The same call as :meth:`monitoring_retention_preview`."""
        return self.monitoring_retention_preview(before)

    # -- commercial control (admin_token; the daemon's commercial mode) --------------------

    def create_tenant(self, name: str, owner: str) -> TenantCreated:
        """POST /v1/commercial/tenants: a tenant (name 1..100 characters) with its first owner
        (a DID). Returns ``{"tenant": {...}}``. Operator only: without ``admin_token`` SvcError
        UNAUTHORIZED (401); COMMERCIAL_DISABLED (501) when the mode is off."""
        return self._call("createTenant", body={"name": name, "owner": owner}, operator=True)

    def list_tenants(self) -> TenantList:
        """GET /v1/commercial/tenants: every tenant with its owners and projects, oldest first.
        Operator only."""
        return self._call("listTenants", operator=True)

    def create_project(self, tenant_id: str, name: str) -> ProjectCreated:
        """POST /v1/commercial/tenants/{tenant}/projects: a project of the tenant. SvcError
        NOT_FOUND (404): no such tenant; INVALID_REQUEST (400): the name is taken. Operator only."""
        return self._call("createProject", {"tenant": tenant_id}, body={"name": name}, operator=True)

    def attach_owner(self, tenant_id: str, subject: str) -> TenantOwners:
        """POST /v1/commercial/tenants/{tenant}/owners: attach a DID as an owner (idempotent).
        Returns ``{"tenantId", "owners"}``. Operator only."""
        return self._call("attachOwner", {"tenant": tenant_id}, body={"subject": subject}, operator=True)

    def remove_owner(self, tenant_id: str, subject: str) -> None:
        """DELETE /v1/commercial/tenants/{tenant}/owners/{subject}: detach an owner. Returns None
        (204); SvcError NOT_FOUND (404) when it is not an owner. Operator only."""
        return self._call("removeOwner", {"tenant": tenant_id, "subject": subject}, operator=True)

    def project_usage(self, project_id: str) -> ProjectUsage:
        """GET /v1/commercial/projects/{project}/usage: the project's usage counters by month
        (``{"projectId", "usage": [{"metric", "period", "count"}]}``). Operator only."""
        return self._call("projectUsage", {"project": project_id}, operator=True)

    def list_plans(self) -> PlanList:
        """GET /v1/commercial/plans: the mock-billing plans. Operator only."""
        return self._call("listPlans", operator=True)

    def save_plan(
        self, plan_id: str, name: str, currency: str, monthly_price_minor: int, included_requests: int, active: Optional[bool] = None
    ) -> PlanSaved:
        """POST /v1/commercial/plans: creates or replaces a plan (by id). Operator only."""
        body = _compact(
            {
                "id": plan_id,
                "name": name,
                "currency": currency,
                "monthlyPriceMinor": monthly_price_minor,
                "includedRequests": included_requests,
                "active": active,
            }
        )
        return self._call("savePlan", body=body, operator=True)

    def subscribe_tenant(self, tenant_id: str, plan: str) -> SubscriptionSaved:
        """POST /v1/commercial/tenants/{tenant}/subscription: subscribes the tenant to an active plan. Operator only."""
        return self._call("subscribeTenant", {"tenant": tenant_id}, body={"plan": plan}, operator=True)

    def close_period(self, tenant_id: str, period: str) -> PeriodClosed:
        """POST /v1/commercial/tenants/{tenant}/close-period: closes a month (``YYYY-MM``) into an
        OPEN invoice and its CHARGE ledger entry (nothing is collected: billing is a mock). Operator only."""
        return self._call("closePeriod", {"tenant": tenant_id}, body={"period": period}, operator=True)

    def tenant_billing(self, tenant_id: str) -> TenantBilling:
        """GET /v1/commercial/tenants/{tenant}/billing: the subscription, plan, invoices and ledger. Operator only."""
        return self._call("tenantBilling", {"tenant": tenant_id}, operator=True)

    # -- proofs of control and the directory --------------------------------------------

    def create_claim_challenge(
        self, did: str, method: str, purpose: Optional[str] = None, expires_in_seconds: Optional[int] = None
    ) -> ClaimChallenge:
        """POST /v1/claims/challenges: a challenge to prove control of ``did`` by ``method``
        ("signature": a compact JWS over ``signature["payload"]`` by a key under authentication;
        "well-known": the token at ``wellKnown["url"]``; "dns": the token in a TXT record
        ``dns["name"]``). ``purpose`` "list" also opts in to the directory, "unlist" opts out
        (default "claim"). ``expires_in_seconds``: the challenge's lifetime (the daemon's default
        when None)."""
        if expires_in_seconds is not None and (isinstance(expires_in_seconds, bool) or not isinstance(expires_in_seconds, int)):
            raise TypeError("expires_in_seconds must be an integer")
        body = _compact({"did": did, "method": method, "purpose": purpose, "expiresInSeconds": expires_in_seconds})
        return self._call("createClaimChallenge", body=body)

    def verify_claim(self, did: str, token: str, jws: Optional[str] = None) -> ClaimVerification:
        """POST /v1/claims/verify: submit the proof of the challenge ``token`` (with ``jws`` for
        the signature method). A refused proof is a result (``verified`` False, ``refusal`` with
        a code and a reason), not an error."""
        return self._call("verifyClaim", body=_compact({"did": did, "token": token, "jws": jws}))

    def list_claims(self, did: str) -> ClaimList:
        """GET /v1/claims/{did}: the current claims (what each proves and does not), the latest
        lapsed ones with their reason, and whether the DID is listed in the directory."""
        return self._call("listClaims", {"did": did})

    def list_directory(
        self, q: Optional[str] = None, method: Optional[str] = None, limit: Optional[int] = None, cursor: Optional[str] = None
    ) -> DirectoryPage:
        """GET /v1/directory: one page of opted-in identifiers, oldest listing first. Pass the
        page's ``nextCursor`` back as ``cursor`` (with the same ``q`` and ``method``) for the
        next; it is None on the last page."""
        if limit is not None and (isinstance(limit, bool) or not isinstance(limit, int)):
            raise TypeError("limit must be an integer")
        query = {"q": q, "method": method, "limit": None if limit is None else str(limit), "cursor": cursor}
        return self._call("listDirectory", query=query)

    # -- owner sessions (base_url: the loopback cookie gateway) --------------------------

    def sign_in_challenge(self, did: str) -> Dict[str, Any]:
        """POST /sign-in/challenge: ``{challenge, statement, expiresAt}`` — sign ``statement``
        (its UTF-8 bytes are the JWS payload) with a key ``did`` lists under authentication."""
        return self._gateway("POST", "/sign-in/challenge", {"did": did}, (201,))

    def sign_in(self, did: str, challenge: str, jws: str) -> Dict[str, Any]:
        """POST /sign-in: the owner, its projects, the expiries, and ``sessionCookie``: the
        value of the session cookie (keep it secret; pass it as ``session_cookie``). Never retried."""
        return self._gateway("POST", "/sign-in", {"did": did, "challenge": challenge, "jws": jws}, (200,), want_cookie=True)

    def sign_out(self) -> None:
        """POST /sign-out: ends the session."""
        return self._gateway("POST", "/sign-out", None, (204,))

    def session(self) -> Dict[str, Any]:
        """GET /session: the owner, its projects and the expiries; SvcError UNAUTHORIZED (401) without a live session."""
        return self._gateway("GET", "/session", None, (200,))

    def list_owner_projects(self) -> Dict[str, Any]:
        """GET /v1/session/projects: the session owner's projects (through the gateway)."""
        return self._gateway("GET", "/v1/session/projects", None, (200,))

    def list_project_keys(self, project: str) -> Dict[str, Any]:
        """GET /v1/session/projects/{project}/keys: the project's keys (metadata, never a secret)."""
        return self._gateway("GET", f"/v1/session/projects/{_segment(project)}/keys", None, (200,))

    def issue_project_key(self, project: str, label: Optional[str] = None) -> Dict[str, Any]:
        """POST /v1/session/projects/{project}/keys: issues a key; its secret is in this answer only."""
        return self._gateway("POST", f"/v1/session/projects/{_segment(project)}/keys", _compact({"label": label}), (200, 201))

    def revoke_project_key(self, project: str, key: str) -> None:
        """DELETE /v1/session/projects/{project}/keys/{key}: revokes the key."""
        self._gateway("DELETE", f"/v1/session/projects/{_segment(project)}/keys/{_segment(key)}", None, (200, 204))

    def rotate_project_key(self, project: str, key: str) -> Dict[str, Any]:
        """POST /v1/session/projects/{project}/keys/{key}/rotate: atomic rotation; the new secret is in this answer only."""
        return self._gateway("POST", f"/v1/session/projects/{_segment(project)}/keys/{_segment(key)}/rotate", {}, (200, 201))

    def list_project_watches(self, project: str) -> Dict[str, Any]:
        """GET /v1/session/projects/{project}/watches: the watches and whether the daemon runs the automatic worker."""
        return self._gateway("GET", f"{_project(project)}/watches", None, (200,))

    def add_project_watch(
        self,
        project: str,
        did: Optional[str] = None,
        *,
        mcp_endpoint: Optional[str] = None,
        a2a_card: Optional[str] = None,
        baseline: Optional[Dict[str, Any]] = None,
    ) -> Dict[str, Any]:
        """POST /v1/session/projects/{project}/watches: watches a did:key, did:jwk or did:web — or an
        MCP endpoint (``mcp_endpoint``) or A2A card (``a2a_card``), optionally against an approved
        ``baseline`` file's JSON (201; 200 when already watched)."""
        body = _compact({"did": did, "mcpEndpoint": mcp_endpoint, "a2aCard": a2a_card, "baseline": baseline})
        return self._gateway("POST", f"{_project(project)}/watches", body, (200, 201))

    def remove_project_watch(self, project: str, watch: str) -> None:
        """DELETE /v1/session/projects/{project}/watches/{watch}: stops watching; queued deliveries are cancelled."""
        self._gateway("DELETE", f"{_project(project)}/watches/{_segment(watch)}", None, (204,))

    def list_watch_events(self, project: str, watch: str) -> Dict[str, Any]:
        """GET …/watches/{watch}/events: every event of the last 30 days; SvcError MONITOR_REPORT_CAPACITY (409) above 200."""
        return self._gateway("GET", f"{_project(project)}/watches/{_segment(watch)}/events", None, (200,))

    def watch_event_page(
        self, project: str, watch: str, limit: int, as_of: Optional[str] = None, snapshot_event_id: Optional[str] = None, before_event_id: Optional[str] = None
    ) -> Dict[str, Any]:
        """POST …/watches/{watch}/event-page: one page from a snapshot; pass ``next``'s members back for the following one."""
        if isinstance(limit, bool) or not isinstance(limit, int):
            raise TypeError("limit must be an integer")
        body = _compact({"limit": limit, "asOf": as_of, "snapshotEventId": snapshot_event_id, "beforeEventId": before_event_id})
        return self._gateway("POST", f"{_project(project)}/watches/{_segment(watch)}/event-page", body, (200,))

    def watch_report(self, project: str, watch: str) -> Dict[str, Any]:
        """POST …/watches/{watch}/report: the complete 30-day report, or SvcError MONITOR_REPORT_CAPACITY (409); never partial."""
        return self._gateway("POST", f"{_project(project)}/watches/{_segment(watch)}/report", {}, (200,))

    def get_project_webhook(self, project: str) -> Dict[str, Any]:
        """GET /v1/session/projects/{project}/webhook: the active configuration (never its secret) and whether the worker runs."""
        return self._gateway("GET", f"{_project(project)}/webhook", None, (200,))

    def set_project_webhook(self, project: str, url: str) -> Dict[str, Any]:
        """POST /v1/session/projects/{project}/webhook: sets (or replaces) the webhook; its signing secret is in this answer only."""
        return self._gateway("POST", f"{_project(project)}/webhook", {"url": url}, (201,))

    def disable_project_webhook(self, project: str) -> None:
        """DELETE /v1/session/projects/{project}/webhook: disables it and cancels queued deliveries (idempotent)."""
        self._gateway("DELETE", f"{_project(project)}/webhook", None, (204,))

    def list_webhook_deliveries(self, project: str) -> Dict[str, Any]:
        """GET /v1/session/projects/{project}/webhook-deliveries: the newest 100 deliveries' metadata."""
        return self._gateway("GET", f"{_project(project)}/webhook-deliveries", None, (200,))

    def replay_webhook_delivery(self, project: str, delivery: str) -> Dict[str, Any]:
        """POST …/webhook-deliveries/{delivery}/replay: a DEAD_LETTER or CANCELLED delivery replayed to the project's active webhook; ``{"delivery"}`` (202), or SvcError CONFLICT (409) naming why not."""
        return self._gateway("POST", f"{_project(project)}/webhook-deliveries/{_segment(delivery)}/replay", {}, (202,))

    def replay_project_watch(self, project: str, watch: str, since: str) -> Dict[str, Any]:
        """POST …/watches/{watch}/replay: the watch's dead letters since ``since``, replayed to the active webhook; ``{"replayed", "count"}`` (202)."""
        return self._gateway("POST", f"{_project(project)}/watches/{_segment(watch)}/replay", {"since": since}, (202,))

    def scheduled_usage(self) -> Dict[str, Any]:
        """GET /v1/session/scheduled-usage: per project, the monitor allowance, attempts used and skipped, the next due check."""
        return self._gateway("GET", "/v1/session/scheduled-usage", None, (200,))

    def _gateway(self, method: str, path: str, body: Any, results: Sequence[int], want_cookie: bool = False) -> Any:
        data = None
        defaults: Dict[str, Optional[str]] = {"Accept": _JSON_ACCEPT}
        if body is not None:
            data = json.dumps(body, ensure_ascii=False, separators=(",", ":"), allow_nan=False).encode("utf-8")
            defaults["Content-Type"] = "application/json"
        headers: Dict[str, Optional[str]] = {"Origin": self.origin}
        if self._session_cookie is not None:
            headers["Cookie"] = f"svc_session={self._session_cookie}"
        status, response_headers, raw = self._send_read(method, self.base_url + path, data, defaults, headers)
        retry_after = _retry_after(response_headers)
        if status not in results:
            raise _error_of(status, raw, retry_after)
        if status == 204:
            return None
        value = _json_object(raw, status, retry_after)
        if want_cookie:
            match = re.match(r"svc_session=([A-Za-z0-9_-]{43});", (response_headers.get("Set-Cookie") or "") if response_headers is not None else "")
            if match is None:
                raise SvcError.client(CLIENT_BAD_RESPONSE, "the sign-in set no session cookie (is base_url the cookie gateway?)", status, retry_after)
            value["sessionCookie"] = match.group(1)
        return value

    # -- transport ------------------------------------------------------------------------

    def _signed_call(
        self,
        operation_id: str,
        path_params: Optional[Mapping[str, str]],
        query: Mapping[str, Optional[str]],
        body: Any,
        expected_signer: Optional[str],
        resolve_key: Optional[KeyResolver],
    ) -> SignedResult:
        """The call with ``signed=true`` (docs/daemon.md#signed-results): the result, the check of
        its ``svc-signature`` (the signer's key found by ``resolve_key``, by default a did:key
        decoded here or a did:web fetched from its host — never asked of the daemon) and the header
        as received. A bad signature is a result (``signature["verified"]`` False with its reason);
        a daemon without a signing key raises SvcError INVALID_OPTIONS."""
        result, headers = self._call(operation_id, path_params, {**query, "signed": "true"}, body, keep_headers=True)
        jws = headers.get("svc-signature") if headers is not None else None
        signature = verify_result_signature(result, jws, expected_signer=expected_signer, resolve_key=resolve_key)
        return {"result": result, "signature": signature, "jws": jws}

    def _call(
        self,
        operation_id: str,
        path_params: Optional[Mapping[str, str]] = None,
        query: Optional[Mapping[str, Optional[str]]] = None,
        body: Any = None,
        headers: Optional[Mapping[str, Optional[str]]] = None,
        default_accept: Optional[str] = _JSON_ACCEPT,
        text: bool = False,
        operator: bool = False,
        keep_headers: bool = False,
    ) -> Any:
        op = _schema.OPERATIONS[operation_id]
        url = self._url(op, path_params or {}, query or {})
        data = None
        defaults: Dict[str, Optional[str]] = {"Accept": default_accept}
        if op["body"] is not None:
            data = json.dumps(body if body is not None else {}, ensure_ascii=False, separators=(",", ":"), allow_nan=False).encode("utf-8")
            defaults["Content-Type"] = "application/json"
        call_headers: Dict[str, Optional[str]] = {}
        if operator and self._admin_token is not None:
            # The operator routes only: the public API is anonymous (or keyed, below).
            call_headers["Authorization"] = f"Bearer {self._admin_token}"
        elif not operator and self._project_key is not None:
            # The project key goes to the public routes only.
            call_headers["Authorization"] = f"Bearer {self._project_key}"
        call_headers.update(headers or {})
        results = op["results"]
        return self._retrying(lambda: self._exchange(op["method"], url, data, defaults, call_headers, results, text, keep_headers))

    def _retrying(self, fn: Callable[[], T]) -> T:
        return with_retry(fn, self.retry) if self.retry is not None else fn()

    def _url(self, op: Mapping[str, Any], path_params: Mapping[str, str], query: Mapping[str, Optional[str]]) -> str:
        path = op["path"]
        for name in op["path_params"]:
            value = path_params.get(name)
            if not isinstance(value, str):
                raise TypeError(f"{name} must be a string")
            path = path.replace("{" + name + "}", urllib.parse.quote(value, safe=""))
        pairs = []
        for name, value in query.items():
            if value is None:
                continue
            if not isinstance(value, str):
                raise TypeError(f"{name} must be a string")
            pairs.append((name, value))
        url = self.base_url + path
        if pairs:
            url += "?" + urllib.parse.urlencode(pairs, quote_via=urllib.parse.quote, safe="")
        return url

    def _send(
        self,
        method: str,
        url: str,
        data: Optional[bytes],
        defaults: Mapping[str, Optional[str]],
        headers: Mapping[str, Optional[str]],
    ) -> Tuple[int, Any, Optional[http.client.HTTPResponse], bytes]:
        """Send one request. Returns (status, headers, open response, b"") for a 2xx, whose body
        is still to be read, and (status, headers, None, body) for an error status (urllib's
        HTTPError, read and closed here). A failure to get an answer is CLIENT_NETWORK_ERROR."""
        # Header names are case-insensitive: later layers (the operation's defaults, then the
        # client's headers, then the call's) replace earlier ones whatever their case; None
        # leaves a header out.
        merged: Dict[str, Tuple[str, Optional[str]]] = {}
        for layer in ({"User-Agent": f"svc-client-python/{VERSION}"}, defaults, self.headers, headers):
            for name, value in layer.items():
                merged[name.lower()] = (name, value)
        request = urllib.request.Request(url, data=data, method=method)
        for name, value in merged.values():
            if value is not None:
                request.add_header(name, value)
        try:
            response = self._opener.open(request, timeout=self.timeout)
        except urllib.error.HTTPError as error:
            try:
                raw = error.read()
            except (OSError, http.client.HTTPException) as cause:
                raise _network_error(cause) from cause
            finally:
                error.close()
            return error.code, error.headers, None, raw
        except (urllib.error.URLError, OSError, http.client.HTTPException) as error:
            raise _network_error(error) from error
        return response.status, response.headers, response, b""

    def _send_read(
        self,
        method: str,
        url: str,
        data: Optional[bytes],
        defaults: Mapping[str, Optional[str]],
        headers: Mapping[str, Optional[str]],
    ) -> Tuple[int, Any, bytes]:
        """Send one request and read its whole body: (status, headers, body), whatever the status."""
        status, response_headers, response, raw = self._send(method, url, data, defaults, headers)
        if response is not None:
            with response:
                try:
                    raw = response.read()
                except (OSError, http.client.HTTPException) as error:
                    raise _network_error(error) from error
        return status, response_headers, raw

    def _exchange(
        self,
        method: str,
        url: str,
        data: Optional[bytes],
        defaults: Mapping[str, Optional[str]],
        headers: Mapping[str, Optional[str]],
        results: Sequence[int],
        text: bool = False,
        keep_headers: bool = False,
    ) -> Any:
        """One exchange: the documented result (with the response headers when ``keep_headers``), else SvcError."""
        value = self._exchange_value(method, url, data, defaults, headers, results, text)
        return value if keep_headers else value[0]

    def _exchange_value(
        self,
        method: str,
        url: str,
        data: Optional[bytes],
        defaults: Mapping[str, Optional[str]],
        headers: Mapping[str, Optional[str]],
        results: Sequence[int],
        text: bool = False,
    ) -> Tuple[Any, Any]:
        status, response_headers, raw = self._send_read(method, url, data, defaults, headers)
        retry_after = _retry_after(response_headers)
        if status == 303 and status in results:
            # A redirect is a result, never followed: the client fetches nothing a DID document names.
            location = response_headers.get("Location") if response_headers is not None else None
            if not location:
                raise SvcError.client(CLIENT_BAD_RESPONSE, "the answer (303) has no Location", status, retry_after)
            return {"status": 303, "location": location}, response_headers
        if 200 <= status < 300 or status in results:
            # 2xx, or a documented result with an error status (410: a deactivated DID).
            if status == 204 and status in results:
                # No Content (delete_watch): nothing to parse.
                return None, response_headers
            if text:
                try:
                    return raw.decode("utf-8"), response_headers
                except UnicodeDecodeError as error:
                    raise SvcError.client(CLIENT_BAD_RESPONSE, f"the answer ({status}) is not UTF-8 text", status, retry_after) from error
            return _json_object(raw, status, retry_after), response_headers
        raise _error_of(status, raw, retry_after)

    def _open_stream(self, url: str) -> http.client.HTTPResponse:
        status, response_headers, response, raw = self._send("GET", url, None, {"Accept": "text/event-stream"}, {})
        if response is None:
            raise _error_of(status, raw, _retry_after(response_headers))
        return response

    def _frames(self, response: http.client.HTTPResponse) -> Iterator[StreamFrame]:
        status = response.status
        retry_after = _retry_after(response.headers)
        media = (response.headers.get("Content-Type") or "").split(";")[0].strip().lower()

        def frames() -> Iterator[StreamFrame]:
            with response:
                if media != "text/event-stream":
                    raise SvcError.client(CLIENT_BAD_RESPONSE, f"the stream answered {media or 'no content type'}, not text/event-stream", status, retry_after)
                parser = SseParser()
                read = getattr(response, "read1", None) or response.read
                while True:
                    try:
                        chunk = read(_READ_CHUNK)
                    except (OSError, http.client.HTTPException) as error:
                        raise _network_error(error) from error
                    if not chunk:
                        parser.close()
                        raise SvcError.client(CLIENT_BAD_RESPONSE, "the event stream ended before its done frame", status, retry_after)
                    for event in parser.feed(chunk):
                        try:
                            data = json.loads(event.data, parse_constant=_no_constant)
                        except ValueError as error:
                            raise SvcError.client(CLIENT_BAD_RESPONSE, f"the data of a {event.event!r} frame is not JSON", status, retry_after, error) from error
                        yield {"event": event.event, "data": data}
                        if event.event == "done":
                            return

        return frames()


def _project(project: str) -> str:
    return f"/v1/session/projects/{_segment(project)}"


def _segment(value: str) -> str:
    if not isinstance(value, str):
        raise TypeError("project, key and watch ids must be strings")
    return urllib.parse.quote(value, safe="")


def _retry_after(headers: Any) -> Optional[int]:
    return parse_retry_after(headers.get("Retry-After")) if headers is not None else None


def _error_of(status: int, raw: bytes, retry_after: Optional[int]) -> SvcError:
    """An error status as SvcError: its problem, or CLIENT_BAD_RESPONSE without one."""
    try:
        body = json.loads(raw.decode("utf-8"), parse_constant=_no_constant)
    except (UnicodeDecodeError, ValueError):
        body = None
    problem = _problem_of(body)
    if problem is None:
        return SvcError.client(CLIENT_BAD_RESPONSE, f"status {status} without a problem body", status, retry_after)
    return SvcError(problem, status=status, retry_after=retry_after)


def _problem_of(body: Any) -> Optional[Dict[str, Any]]:
    """The problem in a body: a problem+json object, or the one a /1.0 resolution result
    embeds in didResolutionMetadata.error."""
    if not isinstance(body, dict):
        return None
    metadata = body.get("didResolutionMetadata")
    if isinstance(metadata, dict):
        embedded = metadata.get("error")
        if isinstance(embedded, dict) and isinstance(embedded.get("code"), str):
            return embedded
        return None
    if isinstance(body.get("code"), str):
        return body
    return None


def _network_error(error: BaseException) -> SvcError:
    reason = getattr(error, "reason", None)
    cause = reason if isinstance(reason, BaseException) else error
    if isinstance(cause, socket.timeout) or isinstance(error, socket.timeout):
        detail = f"no answer within the client's timeout ({cause})"
    else:
        detail = f"the daemon could not be reached: {type(cause).__name__}: {cause}"
    return SvcError.client(CLIENT_NETWORK_ERROR, detail, 0, None, cause)


def _json_object(raw: bytes, status: int, retry_after: Optional[int]) -> Dict[str, Any]:
    try:
        body = json.loads(raw.decode("utf-8"), parse_constant=_no_constant)
    except (UnicodeDecodeError, ValueError) as error:
        raise SvcError.client(CLIENT_BAD_RESPONSE, f"status {status} with a body that is not JSON", status, retry_after, error) from error
    if not isinstance(body, dict):
        raise SvcError.client(CLIENT_BAD_RESPONSE, f"status {status} with a JSON body that is not an object", status, retry_after)
    return body


def _no_constant(name: str) -> Any:
    raise ValueError(f"{name} is not JSON")


def _decide(authorization: Any) -> DenyResult:
    if (
        not isinstance(authorization, dict)
        or authorization.get("decision") not in ("ALLOW", "DENY")
        or not isinstance(authorization.get("authorized"), bool)
        or not isinstance(authorization.get("reason"), str)
    ):
        error = SvcError.client(CLIENT_BAD_RESPONSE, "the answer holds no well-formed authorization", 200)
        return {"decision": "DENY", "authorized": False, "reason": f"{error.code}: {error.detail}", "error": error}
    if authorization["decision"] == "ALLOW" and authorization["authorized"] is True:
        return {"decision": "ALLOW", "authorized": True, "reason": authorization["reason"], "authorization": authorization}
    if authorization["decision"] == "ALLOW" or authorization["authorized"] is True:
        error = SvcError.client(CLIENT_BAD_RESPONSE, "the authorization is inconsistent (decision and authorized disagree)", 200)
        return {"decision": "DENY", "authorized": False, "reason": f"{error.code}: {error.detail}", "authorization": authorization, "error": error}
    return {"decision": "DENY", "authorized": False, "reason": authorization["reason"], "authorization": authorization}


def _require_roots(helper: str, name: str, roots: Any, any_root: Any) -> None:
    """The DENY helpers fail closed on missing trust: ``roots`` (a non-empty list of DIDs, or
    one DID) or ``any_root is True``, not both; anything else is the caller's mistake, raised as
    TypeError before any request — never an ALLOW."""
    if not isinstance(any_root, bool):
        raise TypeError(f"{helper}: any_root must be True or False")
    given = roots is not None and len(roots) > 0 if isinstance(roots, (str, list, tuple)) else roots is not None
    if any_root and given:
        raise TypeError(f"{helper}: any_root and {name} exclude each other: name the trusted roots, or accept any root")
    if not any_root and not given:
        what = "a DID" if name == "root" else "one or more DIDs"
        raise TypeError(
            f"{helper}: no trusted root was given; pass {name} ({what}) or any_root=True — "
            "without one, any chain is accepted, even one the agent minted itself"
        )


def _deny_error(error: Exception) -> DenyResult:
    if not isinstance(error, SvcError):
        # Not an HTTP outcome (e.g. an argument that cannot be sent): still DENY, never raised.
        error = SvcError.client(CLIENT_BAD_RESPONSE, f"the call failed in the client: {type(error).__name__}: {error}", 0, None, error)
    detail = error.detail or error.title
    return {"decision": "DENY", "authorized": False, "reason": f"{error.code}: {detail}", "error": error}


def _flag(value: Optional[bool]) -> Optional[str]:
    return "true" if value else None


def _number(value: Optional[int]) -> Optional[str]:
    if value is None:
        return None
    if isinstance(value, bool) or not isinstance(value, int):
        raise TypeError("version_number must be an integer")
    return str(value)


def _strings(values: Optional[Sequence[str]]) -> Optional[List[str]]:
    if values is None:
        return None
    if isinstance(values, (str, bytes)):
        raise TypeError("expected a list of strings, not a single string")
    return list(values)


def _compact(members: Mapping[str, Any]) -> Dict[str, Any]:
    return {k: v for k, v in members.items() if v is not None}
