"""The client's transport over real sockets (offline): what it sends, and what it makes of
answers svc never gives but a proxy or a broken network can (HTML, a truncated stream, a
timeout). The scripted server stands in for the network, not for svc: svc itself is tested
against the real daemon in test_live.py."""
from __future__ import annotations

import json
import socket
import threading
import time
import unittest
import urllib.error
from typing import Any

from svc_client import CLIENT_BAD_RESPONSE, CLIENT_NETWORK_ERROR, RetryPolicy, SvcClient, SvcError

from ._support import Recorder, ScriptedServer, closed_port_url, json_answer, problem_answer

SSE = {"Content-Type": "text/event-stream; charset=utf-8", "Cache-Control": "no-cache"}


class RequestsTest(unittest.TestCase):
    def test_identifiers_are_percent_encoded_whole(self) -> None:
        with ScriptedServer([json_answer(200, {"did": "x"})]) as server:
            client = SvcClient(server.url + "/")
            client.resolve("did:web:example.com%3A8443:user/a b?#x")
            client.dereference("did:key:z6Mk#z6Mk")
            client.history("did:web:é.example")
        paths = [r.path for r in server.requests]
        self.assertEqual(
            paths,
            [
                "/v1/resolve/did%3Aweb%3Aexample.com%253A8443%3Auser%2Fa%20b%3F%23x",
                "/v1/dereference/did%3Akey%3Az6Mk%23z6Mk",
                "/v1/history/did%3Aweb%3A%C3%A9.example",
            ],
        )

    def test_query_options(self) -> None:
        with ScriptedServer([json_answer(200, {"ok": True})]) as server:
            client = SvcClient(server.url)
            client.resolve("did:key:z", no_cache=True, version_id="1-Q", version_time="2026-01-01T00:00:00Z", version_number=3)
            client.resolve("did:key:z", no_cache=False)
            client.diff("did:key:z", from_="abcdef12", to="12abcdef")
            client.verify_tool("did:key:agent", "payments:refund", root="did:key:root")
            client.inspect_mcp("https://tools.example/mcp?x=1&y=2")
        paths = [r.path for r in server.requests]
        self.assertEqual(paths[0], "/v1/resolve/did%3Akey%3Az?noCache=true&versionId=1-Q&versionTime=2026-01-01T00%3A00%3A00Z&versionNumber=3")
        self.assertEqual(paths[1], "/v1/resolve/did%3Akey%3Az")
        self.assertEqual(paths[2], "/v1/diff/did%3Akey%3Az?from=abcdef12&to=12abcdef")
        self.assertEqual(paths[3], "/v1/agents/verify-tool?agent=did%3Akey%3Aagent&tool=payments%3Arefund&root=did%3Akey%3Aroot")
        self.assertEqual(paths[4], "/v1/mcp/inspect?endpoint=https%3A%2F%2Ftools.example%2Fmcp%3Fx%3D1%26y%3D2")

    def test_json_bodies_and_headers(self) -> None:
        with ScriptedServer([json_answer(200, {"ok": True})]) as server:
            client = SvcClient(server.url, headers={"X-Gateway-Key": "k1", "user-agent": "mine/1"})
            client.verify_credential(
                "eyJ.a.b", expected_audience="did:example:aud", expected_nonce="n-0S6_WzA2Mj", trusted_issuers=("did:web:*.example.com",)
            )
            client.authorize(("r1", "r2"), "search")
            client.verify_delegation(["r1"], register=False)
            client.resolve_w3c_post("did:key:z", accept="application/did-resolution", no_cache=True)
            client.resolve_w3c("did:key:z")
            client.resolve_w3c("did:key:z", accept="application/did-resolution")
        first, second, third, fourth, fifth, sixth = server.requests
        self.assertEqual((first.method, first.path), ("POST", "/v1/credentials/verify"))
        self.assertEqual(
            json.loads(first.body),
            {"credential": "eyJ.a.b", "expectedAudience": "did:example:aud", "expectedNonce": "n-0S6_WzA2Mj", "trustedIssuers": ["did:web:*.example.com"]},
        )
        self.assertEqual(first.headers["content-type"], "application/json")
        self.assertEqual(first.headers["accept"], "application/json, application/problem+json")
        self.assertEqual(first.headers["x-gateway-key"], "k1")
        self.assertEqual(first.headers["user-agent"], "mine/1")
        self.assertEqual(json.loads(second.body), {"chain": ["r1", "r2"], "tool": "search"})
        self.assertEqual(json.loads(third.body), {"chain": ["r1"], "register": False})
        self.assertEqual(json.loads(fourth.body), {"accept": "application/did-resolution", "noCache": True})
        self.assertNotIn("accept", fourth.headers)
        self.assertNotIn("accept", fifth.headers)
        self.assertEqual(sixth.headers["accept"], "application/did-resolution")

    def test_presentation_bodies(self) -> None:
        with ScriptedServer([json_answer(200, {"ok": True}), json_answer(200, {"ok": True}), json_answer(200, {"verified": True})]) as server:
            client = SvcClient(server.url)
            client.verify_presentation(
                "eyJ.a.b",
                challenge="c",
                domain="d.example",
                expected_audience="did:example:aud",
                expected_nonce="n",
                trusted_issuers=("did:example:i1", "did:web:*.example.com"),
                require_holder_binding=False,
            )
            client.verify_presentation({"type": ["VerifiablePresentation"]})
            client.verify_presentation_vc_api({"type": ["VerifiablePresentation"]}, options={"challenge": "c"})
        first, second, third = server.requests
        self.assertEqual((first.method, first.path), ("POST", "/v1/presentations/verify"))
        self.assertEqual(
            json.loads(first.body),
            {
                "presentation": "eyJ.a.b",
                "challenge": "c",
                "domain": "d.example",
                "expectedAudience": "did:example:aud",
                "expectedNonce": "n",
                "trustedIssuers": ["did:example:i1", "did:web:*.example.com"],
                "requireHolderBinding": False,
            },
        )
        self.assertEqual(json.loads(second.body), {"presentation": {"type": ["VerifiablePresentation"]}})
        self.assertEqual((third.path, json.loads(third.body)), ("/presentations/verify", {"verifiablePresentation": {"type": ["VerifiablePresentation"]}, "options": {"challenge": "c"}}))

    def test_baseline_bodies(self) -> None:
        baseline = {"format": "svc-mcp-baseline", "version": 1, "hashProfile": "rfc8785-binary64-v1", "servers": {}}
        with ScriptedServer([json_answer(200, {"ok": True})]) as server:
            client = SvcClient(server.url)
            client.inspect_mcp_with_baseline("https://tools.example/mcp", baseline)
            client.inspect_a2a_with_baseline("https://agent.example", {"format": "svc-a2a-baseline"})
        mcp, a2a = server.requests
        self.assertEqual((mcp.method, mcp.path), ("POST", "/v1/mcp/inspect"))
        self.assertEqual(json.loads(mcp.body), {"endpoint": "https://tools.example/mcp", "baseline": baseline})
        self.assertEqual((a2a.method, a2a.path), ("POST", "/v1/a2a/inspect"))
        self.assertEqual(json.loads(a2a.body), {"url": "https://agent.example", "baseline": {"format": "svc-a2a-baseline"}})

    def test_arguments_that_cannot_be_sent_are_programming_errors(self) -> None:
        client = SvcClient("http://127.0.0.1:9")
        with self.assertRaises(TypeError):
            client.resolve(42)  # type: ignore[arg-type]
        with self.assertRaises(TypeError):
            client.authorize("one-receipt", "tool")
        with self.assertRaises(ValueError):
            SvcClient("ftp://example.com")
        with self.assertRaises(ValueError):
            SvcClient("127.0.0.1:8080")


class OperatorTokenTest(unittest.TestCase):
    TOKEN = "op-token-0123456789abcdefghij"

    def test_the_token_goes_to_the_monitoring_calls_only(self) -> None:
        created = {"watch": {"id": "7"}, "secret": "whsec_x", "note": "n"}
        answers = [json_answer(201, created), json_answer(200, {"watches": []}), (204, {}, b""), json_answer(200, {"events": []}), json_answer(200, {"watches": 0}), json_answer(200, {"status": "ok"})]
        with ScriptedServer(answers) as server:
            client = SvcClient(server.url, admin_token=self.TOKEN, headers={"Authorization": "Basic gateway"})
            self.assertEqual(client.create_watch("did:key:z", "https://hooks.example/a?t=1", interval_seconds=120), created)
            client.list_watches()
            self.assertIsNone(client.delete_watch("7"))
            client.list_monitor_events(watch_id="7")
            client.monitoring_status()
            client.health()
        requests = server.requests
        self.assertEqual(
            [(r.method, r.path) for r in requests],
            [
                ("POST", "/v1/monitoring/watches"),
                ("GET", "/v1/monitoring/watches"),
                ("DELETE", "/v1/monitoring/watches/7"),
                ("GET", "/v1/monitoring/events?watchId=7"),
                ("GET", "/v1/monitoring/status"),
                ("GET", "/health"),
            ],
        )
        self.assertEqual(json.loads(requests[0].body), {"did": "did:key:z", "webhookUrl": "https://hooks.example/a?t=1", "intervalSeconds": 120})
        for request in requests[:5]:
            self.assertEqual(request.headers["authorization"], f"Bearer {self.TOKEN}")
        # A public route: the client's own headers, never the operator token.
        self.assertEqual(requests[5].headers["authorization"], "Basic gateway")
        with ScriptedServer([json_answer(200, {"status": "ok"})]) as server:
            SvcClient(server.url, admin_token=self.TOKEN).status()
        self.assertNotIn("authorization", server.requests[0].headers)

    def test_an_mcp_or_a2a_watch_names_its_subject_and_may_carry_a_baseline(self) -> None:
        created = {"watch": {"id": "8", "kind": "mcp"}, "secret": "whsec_x", "note": "n"}
        baseline = {"format": "svc-mcp-baseline", "version": 1, "hashProfile": "rfc8785-binary64-v1", "servers": {}}
        with ScriptedServer([json_answer(201, created), json_answer(201, created)]) as server:
            client = SvcClient(server.url, admin_token=self.TOKEN)
            client.create_watch(None, "https://hooks.example/a", mcp_endpoint="https://tools.example/mcp", baseline=baseline)
            client.create_watch(None, "https://hooks.example/a", a2a_card="https://agent.example")
        self.assertEqual(
            json.loads(server.requests[0].body),
            {"mcpEndpoint": "https://tools.example/mcp", "webhookUrl": "https://hooks.example/a", "baseline": baseline},
        )
        self.assertEqual(json.loads(server.requests[1].body), {"a2aCard": "https://agent.example", "webhookUrl": "https://hooks.example/a"})

    def test_a_204_elsewhere_than_documented_and_a_problem_of_delete(self) -> None:
        with ScriptedServer([problem_answer(404, "NOT_FOUND")]) as server:
            with self.assertRaises(SvcError) as caught:
                SvcClient(server.url, admin_token=self.TOKEN).delete_watch("9")
        self.assertEqual((caught.exception.code, caught.exception.status), ("NOT_FOUND", 404))
        with ScriptedServer([(204, {}, b"")]) as server:
            with self.assertRaises(SvcError) as caught:
                SvcClient(server.url, admin_token=self.TOKEN).list_watches()
        self.assertEqual((caught.exception.code, caught.exception.status), (CLIENT_BAD_RESPONSE, 204))

    def test_a_token_that_cannot_be_sent_is_refused_without_quoting_it(self) -> None:
        for bad in ("", "two words", self.TOKEN + "\r\nX-Injected: 1", 42):
            with self.subTest(token=repr(bad)[:12]), self.assertRaises((ValueError, TypeError)) as caught:
                SvcClient("http://127.0.0.1:9", admin_token=bad)  # type: ignore[arg-type]
            if isinstance(bad, str) and bad:
                self.assertNotIn(bad, str(caught.exception))

    def test_with_retry_keeps_the_token_and_repr_hides_it(self) -> None:
        client = SvcClient("http://127.0.0.1:9", admin_token=self.TOKEN)
        self.assertNotIn(self.TOKEN, repr(client))
        with ScriptedServer([json_answer(200, {"watches": []})]) as server:
            SvcClient(server.url, admin_token=self.TOKEN).with_retry(RetryPolicy()).list_watches()
        self.assertEqual(server.requests[0].headers["authorization"], f"Bearer {self.TOKEN}")


class AnswersTest(unittest.TestCase):
    def call(self, *answers: Any, **client_options: Any) -> Any:
        with ScriptedServer(list(answers)) as server:
            self.server = server
            return SvcClient(server.url, **client_options).status()

    def assertSvcError(self, code: str, status: int, *answers: Any, **client_options: Any) -> SvcError:
        with self.assertRaises(SvcError) as caught:
            self.call(*answers, **client_options)
        self.assertEqual((caught.exception.code, caught.exception.status), (code, status), repr(caught.exception))
        return caught.exception

    def test_a_problem_becomes_svc_error(self) -> None:
        error = self.assertSvcError("RATE_LIMITED", 429, problem_answer(429, "RATE_LIMITED", {"Retry-After": "3"}))
        self.assertEqual(error.retry_after, 3)
        self.assertEqual(error.problem["code"], "RATE_LIMITED")
        self.assertEqual(error.detail, "RATE_LIMITED detail")
        self.assertEqual(error.type, "urn:svc:problems#RATE_LIMITED")
        self.assertIsNone(error.trace)
        self.assertNotIsInstance(error, urllib.error.URLError)

    def test_the_problems_request_id_is_the_errors(self) -> None:
        error = self.assertSvcError("NOT_FOUND", 404, json_answer(404, {"type": "t", "title": "t", "status": 404, "detail": "d", "code": "NOT_FOUND", "requestId": "req_abc"}))
        self.assertEqual(error.request_id, "req_abc")
        error = self.assertSvcError("NOT_FOUND", 404, problem_answer(404, "NOT_FOUND"))
        self.assertIsNone(error.request_id)

    def test_retry_after_is_read_on_every_answer(self) -> None:
        error = self.assertSvcError("CAPACITY_EXHAUSTED", 503, problem_answer(503, "CAPACITY_EXHAUSTED", {"Retry-After": "17"}))
        self.assertEqual(error.retry_after, 17)
        error = self.assertSvcError("NOT_FOUND", 404, problem_answer(404, "NOT_FOUND"))
        self.assertIsNone(error.retry_after)

    def test_html_error_is_bad_response(self) -> None:
        error = self.assertSvcError(CLIENT_BAD_RESPONSE, 502, (502, {"Content-Type": "text/html", "Retry-After": "5"}, b"<html>Bad gateway</html>"))
        self.assertEqual(error.retry_after, 5)
        self.assertIn("502", error.detail)

    def test_json_error_without_code_is_bad_response(self) -> None:
        self.assertSvcError(CLIENT_BAD_RESPONSE, 500, json_answer(500, {"message": "oops"}))
        self.assertSvcError(CLIENT_BAD_RESPONSE, 500, json_answer(500, ["INTERNAL_ERROR"]))

    def test_success_that_is_not_a_json_object_is_bad_response(self) -> None:
        self.assertSvcError(CLIENT_BAD_RESPONSE, 200, (200, {"Content-Type": "text/html"}, b"<html>portal</html>"))
        self.assertSvcError(CLIENT_BAD_RESPONSE, 200, json_answer(200, [1, 2]))
        self.assertSvcError(CLIENT_BAD_RESPONSE, 200, (200, {"Content-Type": "application/json"}, b'{"x": NaN}'))
        self.assertSvcError(CLIENT_BAD_RESPONSE, 200, (200, {"Content-Type": "application/json"}, b"\xff\xfe"))

    def test_410_is_a_result_where_documented(self) -> None:
        deactivated = {"did": "did:web:gone.example", "verdict": {"outcome": "DEACTIVATED"}}
        with ScriptedServer([json_answer(410, deactivated)]) as server:
            client = SvcClient(server.url)
            self.assertEqual(client.resolve("did:web:gone.example"), deactivated)
            self.assertEqual(client.resolve_w3c("did:web:gone.example"), deactivated)
            with self.assertRaises(SvcError) as caught:
                client.history("did:web:gone.example")
        self.assertEqual((caught.exception.code, caught.exception.status), (CLIENT_BAD_RESPONSE, 410))

    def test_embedded_w3c_problem(self) -> None:
        embedded = {"@context": "https://w3id.org/did-resolution/v1", "didDocument": None, "didResolutionMetadata": {"error": {"type": "t", "title": "Rate limited", "status": 429, "detail": "d", "code": "RATE_LIMITED"}}, "didDocumentMetadata": {}}
        with ScriptedServer([json_answer(429, embedded, {"Retry-After": "2"}, "application/did-resolution")]) as server:
            with self.assertRaises(SvcError) as caught:
                SvcClient(server.url).resolve_w3c("did:key:z")
        self.assertEqual((caught.exception.code, caught.exception.status, caught.exception.retry_after), ("RATE_LIMITED", 429, 2))

    def test_connection_refused_is_network_error(self) -> None:
        with self.assertRaises(SvcError) as caught:
            SvcClient(closed_port_url()).health()
        error = caught.exception
        self.assertEqual((error.code, error.status), (CLIENT_NETWORK_ERROR, 0))
        self.assertIsInstance(error.cause, ConnectionRefusedError)
        self.assertIsNotNone(error.__cause__)
        self.assertEqual(error.problem["code"], CLIENT_NETWORK_ERROR)

    def test_client_timeout_is_network_error(self) -> None:
        listener = socket.socket()
        listener.bind(("127.0.0.1", 0))
        listener.listen(1)  # accepts the connection, never answers
        try:
            started = time.monotonic()
            with self.assertRaises(SvcError) as caught:
                SvcClient(f"http://127.0.0.1:{listener.getsockname()[1]}", timeout=0.3).health()
            self.assertLess(time.monotonic() - started, 5)
        finally:
            listener.close()
        self.assertEqual((caught.exception.code, caught.exception.status), (CLIENT_NETWORK_ERROR, 0))
        self.assertIn("timeout", caught.exception.detail)

    def test_retry_honours_retry_after_then_succeeds(self) -> None:
        sleep = Recorder()
        answers = [problem_answer(429, "RATE_LIMITED", {"Retry-After": "2"}), problem_answer(503, "CAPACITY_EXHAUSTED", {"Retry-After": "1"}), json_answer(200, {"status": "ok"})]
        result = self.call(*answers, retry=RetryPolicy(attempts=3, base_delay=0.5, sleep=sleep, random=lambda: 0.0))
        self.assertEqual(result, {"status": "ok"})
        self.assertEqual(sleep.calls, [2.0, 1.0])
        self.assertEqual(len(self.server.requests), 3)

    def test_retry_gives_up_after_attempts(self) -> None:
        sleep = Recorder()
        error = self.assertSvcError("SERVICE_UNAVAILABLE", 503, problem_answer(503, "SERVICE_UNAVAILABLE", {"Retry-After": "1"}), retry=RetryPolicy(attempts=3, sleep=sleep))
        self.assertEqual(error.retry_after, 1)
        self.assertEqual(len(self.server.requests), 3)
        self.assertEqual(len(sleep.calls), 2)

    def test_no_retry_of_other_statuses(self) -> None:
        for answer in (problem_answer(400, "INVALID_REQUEST"), problem_answer(408, "REQUEST_TIMEOUT"), problem_answer(500, "INTERNAL_ERROR"), problem_answer(503, "NOT_READY", {"Retry-After": "5"}), (503, {"Content-Type": "text/html"}, b"busy")):
            sleep = Recorder()
            with self.subTest(status=answer[0]), self.assertRaises(SvcError):
                self.call(answer, json_answer(200, {}), retry=RetryPolicy(sleep=sleep))
            self.assertEqual(len(self.server.requests), 1)
            self.assertEqual(sleep.calls, [])

    def test_with_retry_returns_a_new_client(self) -> None:
        client = SvcClient("http://127.0.0.1:9", timeout=5, headers={"X": "1"})
        policy = RetryPolicy()
        retrying = client.with_retry(policy)
        self.assertIsNot(retrying, client)
        self.assertIsNone(client.retry)
        self.assertIs(retrying.retry, policy)
        self.assertEqual((retrying.base_url, retrying.timeout, retrying.headers), (client.base_url, 5, {"X": "1"}))


class DenyHelpersTest(unittest.TestCase):
    def decide(self, answer: Any, tool_route: bool = False) -> Any:
        with ScriptedServer([answer]) as server:
            client = SvcClient(server.url)
            return client.verify_tool_or_deny("did:key:a", "t", root="did:key:r") if tool_route else client.authorize_or_deny(["r"], "t", ["did:key:r"])

    def test_allow_needs_decision_and_authorized(self) -> None:
        allow = {"agent": "did:key:a", "tool": "t", "decision": "ALLOW", "authorized": True, "reason": "granted by payments:*"}
        result = self.decide(json_answer(200, {"authorization": allow, "chain": {}}))
        self.assertEqual(result, {"decision": "ALLOW", "authorized": True, "reason": "granted by payments:*", "authorization": allow})
        self.assertEqual(self.decide(json_answer(200, allow), tool_route=True)["decision"], "ALLOW")

    def test_inconsistent_or_malformed_answers_are_deny(self) -> None:
        for body in (
            {"authorization": {"agent": None, "tool": "t", "decision": "ALLOW", "authorized": False, "reason": "r"}},
            {"authorization": {"agent": None, "tool": "t", "decision": "DENY", "authorized": True, "reason": "r"}},
            {"authorization": {"agent": None, "tool": "t", "decision": "ALLOW", "authorized": "true", "reason": "r"}},
            {"authorization": {"decision": "ALLOW"}},
            {"authorization": "ALLOW"},
            {},
        ):
            with self.subTest(body=body):
                result = self.decide(json_answer(200, body))
                self.assertEqual((result["decision"], result["authorized"]), ("DENY", False))
                self.assertEqual(result["error"].code, CLIENT_BAD_RESPONSE)
                self.assertTrue(result["reason"].startswith("CLIENT_BAD_RESPONSE: "))

    def test_errors_are_deny_never_raised(self) -> None:
        for answer, code in ((problem_answer(500, "INTERNAL_ERROR"), "INTERNAL_ERROR"), (problem_answer(429, "RATE_LIMITED", {"Retry-After": "1"}), "RATE_LIMITED"), ((200, {"Content-Type": "text/html"}, b"<p>"), CLIENT_BAD_RESPONSE)):
            for tool_route in (False, True):
                with self.subTest(code=code, tool_route=tool_route):
                    result = self.decide(answer, tool_route)
                    self.assertEqual((result["decision"], result["authorized"]), ("DENY", False))
                    self.assertEqual(result["error"].code, code)
                    self.assertTrue(result["reason"].startswith(code + ": "))
                    self.assertNotIn("authorization", result)
        result = SvcClient("http://127.0.0.1:9").authorize_or_deny("not a list", "t", any_root=True)  # a TypeError inside
        self.assertEqual((result["decision"], result["error"].code), ("DENY", CLIENT_BAD_RESPONSE))

    def test_missing_trust_raises_before_any_request(self) -> None:
        # Fail closed: without trusted roots (or any_root=True) the helpers refuse the call itself;
        # the scripted server has no answer to give, so a request would fail the test differently.
        with ScriptedServer([]) as server:
            client = SvcClient(server.url)
            for call, pattern in (
                (lambda: client.authorize_or_deny(["r"], "t"), r"^authorize_or_deny: no trusted root was given; pass trusted_roots \(one or more DIDs\) or any_root=True"),
                (lambda: client.authorize_or_deny(["r"], "t", []), r"no trusted root was given"),
                (lambda: client.authorize_or_deny(["r"], "t", any_root=False), r"no trusted root was given"),
                (lambda: client.authorize_or_deny(["r"], "t", ["did:key:r"], any_root=True), r"exclude each other"),
                (lambda: client.authorize_or_deny(["r"], "t", any_root="yes"), r"any_root must be True or False"),  # type: ignore[arg-type]
                (lambda: client.verify_tool_or_deny("did:key:a", "t"), r"^verify_tool_or_deny: no trusted root was given; pass root \(a DID\) or any_root=True"),
                (lambda: client.verify_tool_or_deny("did:key:a", "t", ""), r"no trusted root was given"),
                (lambda: client.verify_tool_or_deny("did:key:a", "t", "did:key:r", any_root=True), r"exclude each other"),
            ):
                with self.subTest(pattern=pattern):
                    with self.assertRaisesRegex(TypeError, pattern):
                        call()
            self.assertEqual(server.requests, [])

    def test_any_root_sends_no_roots(self) -> None:
        allow = {"agent": "did:key:a", "tool": "t", "decision": "ALLOW", "authorized": True, "reason": "granted by *"}
        with ScriptedServer([json_answer(200, {"authorization": allow, "chain": {}}), json_answer(200, allow)]) as server:
            client = SvcClient(server.url)
            self.assertEqual(client.authorize_or_deny(["r"], "t", any_root=True)["decision"], "ALLOW")
            self.assertEqual(client.verify_tool_or_deny("did:key:a", "t", any_root=True)["decision"], "ALLOW")
            self.assertEqual(json.loads(server.requests[0].body), {"chain": ["r"], "tool": "t"})
            self.assertNotIn("root=", server.requests[1].path)


class StreamTransportTest(unittest.TestCase):
    def test_frames_are_yielded_as_they_arrive(self) -> None:
        release = threading.Event()
        timed_out = []

        def body(wfile: Any) -> None:
            wfile.write(b'event: stage\ndata: {"stage":"syntax.parse"}\n\n')
            wfile.flush()
            if not release.wait(5):
                timed_out.append(True)
            wfile.write(b'event: result\ndata: {"did":"did:key:z"}\n\nevent: done\ndata: {}\n\n')

        with ScriptedServer([(200, SSE, body)]) as server:
            frames = SvcClient(server.url).stream("did:key:z")
            first = next(frames)
            released_before_first = release.is_set()
            release.set()
            rest = list(frames)
        self.assertFalse(released_before_first)
        self.assertEqual(timed_out, [], "the first frame only arrived once the server finished: the stream was buffered")
        self.assertEqual(first, {"event": "stage", "data": {"stage": "syntax.parse"}})
        self.assertEqual([f["event"] for f in rest], ["result", "done"])

    def test_reading_stops_at_done(self) -> None:
        def body(wfile: Any) -> None:
            wfile.write(b"event: done\r\ndata: {}\r\n\r\nevent: stage\r\ndata: not json\r\n\r\n")

        with ScriptedServer([(200, SSE, body)]) as server:
            self.assertEqual(list(SvcClient(server.url).stream("did:key:z")), [{"event": "done", "data": {}}])

    def test_stream_ending_before_done_is_bad_response(self) -> None:
        with ScriptedServer([(200, SSE, lambda w: w.write(b'event: stage\ndata: {"stage":"a"}\n\n'))]) as server:
            frames = SvcClient(server.url).stream("did:key:z")
            self.assertEqual(next(frames)["event"], "stage")
            with self.assertRaises(SvcError) as caught:
                next(frames)
        self.assertEqual((caught.exception.code, caught.exception.status), (CLIENT_BAD_RESPONSE, 200))

    def test_data_that_is_not_json_is_bad_response(self) -> None:
        with ScriptedServer([(200, SSE, lambda w: w.write(b"event: stage\ndata: {oops\n\n"))]) as server:
            with self.assertRaises(SvcError) as caught:
                list(SvcClient(server.url).stream("did:key:z"))
        self.assertEqual(caught.exception.code, CLIENT_BAD_RESPONSE)

    def test_not_an_event_stream_is_bad_response(self) -> None:
        with ScriptedServer([json_answer(200, {"did": "x"})]) as server:
            with self.assertRaises(SvcError) as caught:
                list(SvcClient(server.url).stream("did:key:z"))
        self.assertEqual(caught.exception.code, CLIENT_BAD_RESPONSE)

    def test_problem_before_the_stream_raises_at_the_call(self) -> None:
        with ScriptedServer([problem_answer(429, "RATE_LIMITED", {"Retry-After": "4"})]) as server:
            with self.assertRaises(SvcError) as caught:
                SvcClient(server.url).stream("did:key:z")
        self.assertEqual((caught.exception.code, caught.exception.retry_after), ("RATE_LIMITED", 4))
        self.assertEqual(server.requests[0].headers["accept"], "text/event-stream")
        self.assertEqual(server.requests[0].path, "/v1/stream/did%3Akey%3Az")

    def test_opening_is_retried(self) -> None:
        sleep = Recorder()
        done = (200, SSE, lambda w: w.write(b"event: done\ndata: {}\n\n"))
        with ScriptedServer([problem_answer(429, "RATE_LIMITED", {"Retry-After": "1"}), done]) as server:
            frames = list(SvcClient(server.url, retry=RetryPolicy(sleep=sleep, random=lambda: 0.0)).stream("did:key:z", no_cache=True))
        self.assertEqual(frames, [{"event": "done", "data": {}}])
        self.assertEqual(sleep.calls, [1.0])
        self.assertEqual(server.requests[1].path, "/v1/stream/did%3Akey%3Az?noCache=true")


if __name__ == "__main__":
    unittest.main()
