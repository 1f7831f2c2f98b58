"""The client against real daemons: `svc serve` (direct) and `svc serve --public`, started with
a did:web host, an MCP server and a signed A2A card by test/integration/client-python.e2e.test.ts,
which names the scenario file in SVC_CLIENT_SCENARIO. Without it these tests are skipped (and
that test fails when any test was skipped)."""
from __future__ import annotations

import copy
import json
import ssl
import time
import unittest
from typing import Any, Dict, List

from svc_client import (
    CLIENT_NETWORK_ERROR,
    OPERATIONS,
    RetryPolicy,
    SvcClient,
    SvcError,
    default_key_resolver,
    verify_bundle_signature,
    verify_result_signature,
    with_retry,
)

from ._support import Recorder, load_scenario


class DirectDaemonTest(unittest.TestCase):
    s: Dict[str, Any]
    client: SvcClient

    @classmethod
    def setUpClass(cls) -> None:
        cls.s = load_scenario()
        cls.client = SvcClient(cls.s["daemonUrl"], timeout=30)

    # -- probes and the document ------------------------------------------------------------

    def test_probes(self) -> None:
        health = self.client.health()
        self.assertEqual(health["status"], "ok")
        self.assertIn("did:key", health["supportedMethods"])
        self.assertEqual(self.client.ready()["ready"], True)
        self.assertIn(self.client.status()["status"], ("ok", "degraded"))

    def test_open_api_has_the_operations_of_the_table(self) -> None:
        doc = self.client.open_api()
        self.assertEqual(doc["openapi"], "3.1.0")
        served = {op["operationId"]: (method.upper(), path) for path, item in doc["paths"].items() for method, op in item.items()}
        self.assertEqual(served, {op: (spec["method"], spec["path"]) for op, spec in OPERATIONS.items()})

    # -- web dossier ------------------------------------------------------------------------

    def test_pages_and_assets(self) -> None:
        home = self.client.home_page()
        self.assertIn('role="search"', home)
        page = self.client.dossier_page(self.s["didWeb"], no_cache=True)
        self.assertIn('id="level-4"', page)
        self.assertIn(self.s["didWeb"], page)
        stylesheet = page.split('<link rel="stylesheet" href="/assets/', 1)[1].split('"', 1)[0]
        self.assertIn("--good", self.client.web_asset(stylesheet))
        # A problem of a page is data for a program, not a page.
        with self.assertRaises(SvcError) as raised:
            self.client.dossier_page("did:example:123")
        self.assertEqual(raised.exception.code, "METHOD_NOT_SUPPORTED")
        with self.assertRaises(SvcError) as missing:
            self.client.web_asset("dossier.0000000000000000.css")
        self.assertEqual(missing.exception.code, "NOT_FOUND")

    # -- resolution -------------------------------------------------------------------------

    def test_resolve_did_key(self) -> None:
        result = self.client.resolve(self.s["didKey"])
        self.assertEqual(result["did"], self.s["didKey"])
        self.assertEqual(result["method"], "key")
        self.assertEqual(result["didDocument"]["id"], self.s["didKey"])
        self.assertIn(result["verdict"]["outcome"], ("RESOLVED", "RESOLVED_WITH_WARNINGS"))
        self.assertEqual(len(result["dimensions"]), 7)

    def test_resolve_did_web_percent_encoded_whole(self) -> None:
        # The did:web carries %3A (its port): encoded whole, it reaches the daemon intact.
        self.assertIn("%3A", self.s["didWeb"])
        result = self.client.resolve(self.s["didWeb"], no_cache=True)
        self.assertEqual(result["did"], self.s["didWeb"])
        self.assertEqual(result["method"], "web")
        self.assertEqual(result["didDocument"]["id"], self.s["didWeb"])
        self.assertIs(result["cached"], False)
        self.assertEqual(result["evidence"]["source"]["kind"], "HTTPS")

    def test_no_cache_reaches_the_daemon(self) -> None:
        self.client.resolve(self.s["didKey"])
        self.assertIs(self.client.resolve(self.s["didKey"])["cached"], True)
        self.assertIs(self.client.resolve(self.s["didKey"], no_cache=True)["cached"], False)

    def test_dereference_a_verification_method(self) -> None:
        vm = self.s["didKeyVerificationMethod"]
        result = self.client.dereference(vm)
        self.assertEqual(result["dereferencingMetadata"]["contentType"], "application/json")
        self.assertEqual(result["contentStream"]["id"], vm)

    def test_fast_verify_did(self) -> None:
        for did in (self.s["didKey"], self.s["didWeb"]):
            with self.subTest(did=did):
                verdict = self.client.fast_verify_did(did)
                self.assertEqual(verdict["did"], did)
                self.assertIs(verdict["resolved"], True)
                self.assertGreaterEqual(len(verdict["keys"]), 1)

    def test_history_graph_and_diff(self) -> None:
        did = self.s["didWeb"]
        self.client.resolve(did, no_cache=True)
        history = self.client.history(did)
        self.assertEqual(history["did"], did)
        self.assertGreaterEqual(history["count"], 1)
        self.assertEqual(history["count"], len(history["history"]))
        graph = self.client.graph(did)
        self.assertEqual(graph["did"], did)
        self.assertGreaterEqual(len(graph["nodes"]), 1)
        try:
            diff = self.client.diff(did)
        except SvcError as error:
            # One document observed: a diff needs two (a legitimate answer, by its code).
            self.assertEqual((error.code, error.status), ("NOT_FOUND", 404))
            self.assertEqual(history["count"], 1)
        else:
            self.assertEqual(diff["did"], did)

    def test_resolve_w3c(self) -> None:
        did = self.s["didKey"]
        document = self.client.resolve_w3c(did)
        self.assertEqual(document["id"], did)
        self.assertNotIn("didDocument", document)
        result = self.client.resolve_w3c(did, accept="application/did-resolution")
        self.assertEqual(result["didDocument"]["id"], did)
        self.assertEqual(result["@context"], "https://w3id.org/did-resolution/v1")
        posted = self.client.resolve_w3c_post(did, accept="application/did-resolution", no_cache=True)
        self.assertEqual(posted["didDocument"]["id"], did)
        web = self.client.resolve_w3c(self.s["didWeb"])
        self.assertEqual(web["id"], self.s["didWeb"])

    def test_resolve_w3c_service_redirect_is_a_result(self) -> None:
        # The 303 of a service endpoint is returned, never followed (nothing listens there).
        for accept in ("application/did-url-dereferencing", "text/uri-list"):
            answer = self.client.resolve_w3c(self.s["didWebService"], accept=accept)
            self.assertEqual(answer, {"status": 303, "location": self.s["serviceEndpoint"]})
        posted = self.client.resolve_w3c_post(self.s["didWebService"], accept="application/did-url-dereferencing")
        self.assertEqual(posted, {"status": 303, "location": self.s["serviceEndpoint"]})
        full = self.client.resolve_w3c(self.s["didWebService"])
        self.assertEqual(full["dereferencingMetadata"]["contentType"], "text/uri-list")
        self.assertEqual(full["contentStream"], self.s["serviceEndpoint"])

    def test_resolve_w3c_errors(self) -> None:
        with self.assertRaises(SvcError) as caught:
            self.client.resolve_w3c("did:foo:bar")
        # The problem embedded in didResolutionMetadata.error.
        self.assertEqual((caught.exception.code, caught.exception.status), ("METHOD_NOT_SUPPORTED", 501))
        self.assertTrue(caught.exception.type.endswith("#METHOD_NOT_SUPPORTED"))
        with self.assertRaises(SvcError) as caught:
            self.client.resolve_w3c(self.s["didKey"], accept="text/html")
        self.assertEqual((caught.exception.code, caught.exception.status), ("REPRESENTATION_NOT_SUPPORTED", 406))
        with self.assertRaises(SvcError) as caught:
            self.client.resolve_w3c_post("did:foo:bar")
        self.assertEqual(caught.exception.code, "METHOD_NOT_SUPPORTED")

    def test_a_problem_is_an_svc_error_with_its_trace(self) -> None:
        with self.assertRaises(SvcError) as caught:
            self.client.resolve("did:foo:bar")
        error = caught.exception
        self.assertEqual((error.code, error.status), ("METHOD_NOT_SUPPORTED", 501))
        self.assertIn('"foo"', error.detail)
        self.assertTrue(error.title)
        self.assertEqual(error.type, "https://www.w3.org/ns/did#METHOD_NOT_SUPPORTED")
        self.assertIsInstance(error.trace, list)
        assert error.trace is not None
        self.assertEqual((error.trace[0]["stage"], error.trace[0]["status"]), ("syntax.parse", "FAIL"))
        self.assertEqual(error.problem["code"], "METHOD_NOT_SUPPORTED")
        self.assertIsNone(error.retry_after)
        self.assertIn("METHOD_NOT_SUPPORTED", str(error))

    def test_invalid_did_is_400(self) -> None:
        with self.assertRaises(SvcError) as caught:
            self.client.resolve("not-a-did")
        self.assertEqual((caught.exception.code, caught.exception.status), ("INVALID_DID", 400))

    def test_no_retry_of_a_400(self) -> None:
        sleep = Recorder()
        tries: List[SvcError] = []
        client = self.client.with_retry(RetryPolicy(attempts=5, sleep=sleep))

        def call() -> Any:
            try:
                return client.resolve("not-a-did")
            except SvcError as error:
                tries.append(error)
                raise

        with self.assertRaises(SvcError) as caught:
            with_retry(call, RetryPolicy(attempts=5, sleep=sleep))
        self.assertEqual((caught.exception.code, caught.exception.status), ("INVALID_DID", 400))
        self.assertEqual(len(tries), 1)
        self.assertEqual(sleep.calls, [])

    # -- the stream ---------------------------------------------------------------------------

    def test_stream_stages_then_one_result_then_done(self) -> None:
        frames = list(self.client.stream(self.s["didWeb"], no_cache=True))
        events = [f["event"] for f in frames]
        self.assertGreaterEqual(events.count("stage"), 1)
        self.assertEqual(events.count("result"), 1)
        self.assertEqual(events[-2:], ["result", "done"])
        self.assertEqual(set(events[:-2]), {"stage"})
        self.assertEqual(frames[-1]["data"], {})
        self.assertEqual(frames[-2]["data"]["did"], self.s["didWeb"])
        for frame in frames[:-2]:
            self.assertEqual(set(frame["data"]), {"stage", "label", "status", "startedUs", "durationUs", "detail"})

    def test_stream_of_a_failing_did_is_error_then_done(self) -> None:
        frames = list(self.client.stream("did:foo:bar"))
        events = [f["event"] for f in frames]
        self.assertEqual(events[-2:], ["error", "done"])
        self.assertNotIn("result", events)
        self.assertEqual(set(events[:-2]), {"stage"} if events[:-2] else set())
        problem = frames[-2]["data"]
        self.assertEqual((problem["code"], problem["status"]), ("METHOD_NOT_SUPPORTED", 501))
        self.assertEqual(problem["trace"][0]["stage"], "syntax.parse")

    def test_stream_refused_before_it_starts_raises(self) -> None:
        with self.assertRaises(SvcError) as caught:
            self.client.stream("")
        self.assertEqual((caught.exception.code, caught.exception.status), ("INVALID_DID", 400))

    # -- verification ---------------------------------------------------------------------------

    def test_verify_credential_object_and_jwt(self) -> None:
        for label, credential in (("object", self.s["credential"]), ("vc+jwt", self.s["credentialJwt"])):
            with self.subTest(form=label):
                result = self.client.verify_credential(credential)
                self.assertEqual((result["status"], result["valid"]), ("VALID", True), result["headline"])
                self.assertEqual(result["issuer"], self.s["didKey"])
        jwt = self.client.verify_credential(self.s["credentialJwt"], expected_audience="did:example:verifier")
        self.assertEqual(jwt["status"], "INVALID")  # no aud claim: a result, not an error

    def test_verify_credential_trusted_issuers(self) -> None:
        listed = self.client.verify_credential(self.s["credential"], trusted_issuers=[self.s["didKey"]])
        self.assertEqual((listed["status"], listed["issuerTrust"]["status"], listed["issuerTrust"]["matched"]), ("VALID", "PASS", self.s["didKey"]))
        unlisted = self.client.verify_credential(self.s["credential"], trusted_issuers=["did:web:*.example.com"])
        self.assertEqual((unlisted["status"], unlisted["valid"], unlisted["issuerTrust"]["status"]), ("VALID", True, "FAIL"))
        self.assertNotIn("issuerTrust", self.client.verify_credential(self.s["credential"]))
        with self.assertRaises(SvcError) as caught:
            self.client.verify_credential(self.s["credential"], trusted_issuers=["did:key:*"])
        self.assertEqual((caught.exception.code, caught.exception.status), ("INVALID_REQUEST", 400))
        self.assertIn("did:key:*", caught.exception.detail)

    def test_a_failed_credential_is_a_result(self) -> None:
        tampered = copy.deepcopy(self.s["credential"])
        tampered["credentialSubject"]["name"] = "Mallory"
        result = self.client.verify_credential(tampered)
        self.assertIs(result["valid"], False)
        self.assertNotEqual(result["status"], "VALID")
        with self.assertRaises(SvcError) as caught:
            self.client.verify_credential(self.s["credential"], expected_audience="")
        self.assertEqual((caught.exception.code, caught.exception.status), ("INVALID_REQUEST", 400))

    def test_verify_credential_vc_api(self) -> None:
        ok = self.client.verify_credential_vc_api(self.s["credential"], options={"checks": ["proof"]})
        self.assertIs(ok["verified"], True, ok["errors"])
        self.assertIn("proof", ok["checks"])
        self.assertEqual(ok["errors"], [])
        envelope = {
            "@context": ["https://www.w3.org/ns/credentials/v2"],
            "type": "EnvelopedVerifiableCredential",
            "id": "data:application/vc+jwt," + self.s["credentialJwt"],
        }
        self.assertIs(self.client.verify_credential_vc_api(envelope)["verified"], True)
        # Not verified: the 400 VerificationResult is returned, not raised.
        tampered = copy.deepcopy(self.s["credential"])
        tampered["credentialSubject"]["name"] = "Mallory"
        failed = self.client.verify_credential_vc_api(tampered)
        self.assertIs(failed["verified"], False)
        self.assertTrue(any(e["type"].endswith("#credential-check:proof") for e in failed["errors"]), failed["errors"])
        # A refused request (a problem) raises.
        with self.assertRaises(SvcError) as caught:
            self.client.verify_credential_vc_api(self.s["credential"], options={"checks": ["schema"]})
        self.assertEqual((caught.exception.code, caught.exception.status), ("INVALID_OPTIONS", 400))
        with self.assertRaises(SvcError) as caught:
            self.client.verify_credential_vc_api(self.s["credentialJwt"])  # type: ignore[arg-type]
        self.assertEqual((caught.exception.code, caught.exception.status), ("INVALID_REQUEST", 400))

    def test_verify_presentation(self) -> None:
        p = self.s["presentation"]
        for label, presentation, fmt in (("object", p["object"], "DATA_INTEGRITY"), ("vp+jwt", p["jwt"], "VC_JOSE_COSE")):
            with self.subTest(form=label):
                result = self.client.verify_presentation(presentation, challenge=p["challenge"], domain=p["domain"])
                self.assertEqual((result["status"], result["valid"], result["format"]), ("VALID", True, fmt), result["headline"])
                self.assertEqual(result["holder"], p["holder"])
                self.assertEqual([c["verification"]["status"] for c in result["credentials"]], ["VALID"])
        # Every option reaches the daemon (the nonce and audience are for SD-JWT VCs: none here); a failed check is a result.
        everything = self.client.verify_presentation(
            p["object"],
            challenge=p["challenge"],
            domain=p["domain"],
            expected_audience="did:web:verifier.example",
            expected_nonce="n-1",
            trusted_issuers=[self.s["didKey"]],
            require_holder_binding=True,
        )
        self.assertEqual(everything["status"], "VALID", everything["headline"])
        self.assertEqual(everything["credentials"][0]["verification"]["issuerTrust"]["status"], "PASS")
        replayed = self.client.verify_presentation(p["object"], challenge="another-challenge", domain=p["domain"])
        self.assertEqual(replayed["status"], "INVALID")
        self.assertEqual([c["status"] for c in replayed["checks"] if c["id"] == "challenge"], ["FAIL"])
        with self.assertRaises(SvcError) as caught:
            self.client.verify_presentation(p["object"], challenge="")
        self.assertEqual((caught.exception.code, caught.exception.status), ("INVALID_REQUEST", 400))

    def test_verify_presentation_vc_api(self) -> None:
        p = self.s["presentation"]
        ok = self.client.verify_presentation_vc_api(p["object"], options={"challenge": p["challenge"], "domain": p["domain"]})
        self.assertIs(ok["verified"], True, ok["errors"])
        self.assertIn("challenge", ok["checks"])
        envelope = {
            "@context": ["https://www.w3.org/ns/credentials/v2"],
            "type": "EnvelopedVerifiablePresentation",
            "id": "data:application/vp+jwt," + p["jwt"],
        }
        self.assertIs(self.client.verify_presentation_vc_api(envelope, options={"challenge": p["challenge"]})["verified"], True)
        failed = self.client.verify_presentation_vc_api(p["object"], options={"challenge": "another-challenge"})
        self.assertIs(failed["verified"], False)
        self.assertTrue(any(e["type"].endswith("#presentation-check:challenge") for e in failed["errors"]), failed["errors"])
        with self.assertRaises(SvcError) as caught:
            self.client.verify_presentation_vc_api(p["object"], options={"checks": ["schema"]})
        self.assertEqual((caught.exception.code, caught.exception.status), ("INVALID_OPTIONS", 400))

    def test_fast_verify_jws(self) -> None:
        result = self.client.fast_verify_jws(self.s["jws"])
        self.assertEqual((result["status"], result["valid"]), ("VALID", True))
        self.assertEqual(result["payload"], {"hello": "world"})
        self.assertEqual(self.client.fast_verify_jws(self.s["jws"], relationship="keyAgreement")["valid"], False)

    def test_evaluate_policy(self) -> None:
        decision = self.client.evaluate_policy(self.s["didKey"], self.s["policy"])
        self.assertEqual(decision["evaluation"]["status"], "PASS", decision["evaluation"]["headline"])
        self.assertEqual(decision["evaluation"]["policyName"], "keys")
        self.assertIsNone(decision["credential"])
        web = self.client.evaluate_policy(self.s["didWeb"], self.s["policy"], credential=self.s["credential"])
        self.assertEqual(web["evaluation"]["status"], "FAIL")  # allowedMethods: key only
        self.assertEqual(web["credential"]["status"], "VALID")

    # -- agents -------------------------------------------------------------------------------------

    def test_delegation_registered_then_verify_tool(self) -> None:
        d = self.s["delegation"]
        verification = self.client.verify_delegation(d["chain"], register=True)
        self.assertEqual(verification["result"]["status"], "VALID", verification["result"]["headline"])
        self.assertIs(verification["registered"], True)
        self.assertEqual(verification["result"]["root"], d["root"])
        self.assertEqual(verification["result"]["leaf"], d["agent"])
        allowed = self.client.verify_tool(d["agent"], d["allowedTool"])
        self.assertEqual((allowed["decision"], allowed["authorized"]), ("ALLOW", True))
        denied = self.client.verify_tool(d["agent"], d["deniedTool"])
        self.assertEqual((denied["decision"], denied["authorized"]), ("DENY", False))
        rooted = self.client.verify_tool(d["agent"], d["allowedTool"], root=d["root"])
        self.assertEqual(rooted["decision"], "ALLOW")
        other_root = self.client.verify_tool(d["agent"], d["allowedTool"], root=self.s["didKey"])
        self.assertEqual(other_root["decision"], "DENY")
        helper = self.client.verify_tool_or_deny(d["agent"], d["allowedTool"], root=d["root"])
        self.assertEqual((helper["decision"], helper["authorized"]), ("ALLOW", True))
        self.assertEqual(helper["authorization"], rooted)
        anyone = self.client.verify_tool_or_deny(d["agent"], d["allowedTool"], any_root=True)
        self.assertEqual(anyone["authorization"], allowed)
        self.assertNotIn("error", helper)
        helper = self.client.verify_tool_or_deny(d["agent"], d["deniedTool"], any_root=True)
        self.assertEqual((helper["decision"], helper["authorized"]), ("DENY", False))
        self.assertNotIn("error", helper)
        self.assertEqual(helper["reason"], denied["reason"])

    def test_verify_delegation_without_register(self) -> None:
        d = self.s["delegation"]
        result = self.client.verify_delegation(d["chain"], trusted_roots=[self.s["didKey"]])
        self.assertEqual(result["result"]["status"], "INVALID")  # the root is not the trusted one
        self.assertIs(result["registered"], False)

    def test_authorize(self) -> None:
        d = self.s["delegation"]
        answer = self.client.authorize(d["chain"], d["allowedTool"], trusted_roots=[d["root"]])
        self.assertEqual((answer["authorization"]["decision"], answer["authorization"]["authorized"]), ("ALLOW", True))
        self.assertEqual(answer["chain"]["status"], "VALID")
        self.assertEqual(self.client.authorize(d["chain"], d["deniedTool"], trusted_roots=[d["root"]])["authorization"]["decision"], "DENY")

    def test_authorize_or_deny(self) -> None:
        d = self.s["delegation"]
        allow = self.client.authorize_or_deny(d["chain"], d["allowedTool"], [d["root"]])
        self.assertEqual((allow["decision"], allow["authorized"]), ("ALLOW", True))
        self.assertEqual(allow["authorization"]["matchedCapability"], "payments:*")
        self.assertNotIn("error", allow)
        deny = self.client.authorize_or_deny(d["chain"], d["deniedTool"], [d["root"]])
        self.assertEqual((deny["decision"], deny["authorized"]), ("DENY", False))
        self.assertNotIn("error", deny)
        # A problem (400: no tool) is DENY, never raised.
        problem = self.client.authorize_or_deny(d["chain"], "", [d["root"]])
        self.assertEqual((problem["decision"], problem["error"].code), ("DENY", "INVALID_REQUEST"))
        self.assertTrue(problem["reason"].startswith("INVALID_REQUEST: "))

    def test_or_deny_helpers_require_trust(self) -> None:
        d = self.s["delegation"]
        with self.assertRaisesRegex(TypeError, "no trusted root was given"):
            self.client.authorize_or_deny(d["chain"], d["allowedTool"])
        with self.assertRaisesRegex(TypeError, "no trusted root was given"):
            self.client.verify_tool_or_deny(d["agent"], d["allowedTool"])
        # any_root=True on purpose: the daemon decides, with no trusted roots sent.
        anyone = self.client.authorize_or_deny(d["chain"], d["allowedTool"], any_root=True)
        self.assertEqual((anyone["decision"], anyone["authorization"]["root"]), ("ALLOW", d["root"]))
        other = self.client.authorize_or_deny(d["chain"], d["allowedTool"], [self.s["didKey"]])
        self.assertEqual((other["decision"], other["authorized"]), ("DENY", False))  # rooted elsewhere

    def test_unreachable_daemon_is_deny_never_raised(self) -> None:
        d = self.s["delegation"]
        unreachable = SvcClient(self.s["unreachableUrl"], timeout=10)
        for result in (unreachable.authorize_or_deny(d["chain"], d["allowedTool"], [d["root"]]), unreachable.verify_tool_or_deny(d["agent"], d["allowedTool"], d["root"])):
            self.assertEqual((result["decision"], result["authorized"]), ("DENY", False))
            self.assertEqual((result["error"].code, result["error"].status), (CLIENT_NETWORK_ERROR, 0))
            self.assertTrue(result["reason"].startswith("CLIENT_NETWORK_ERROR: "))
            self.assertNotIn("authorization", result)
        with self.assertRaises(SvcError) as caught:
            unreachable.authorize(d["chain"], d["allowedTool"])
        self.assertEqual(caught.exception.code, CLIENT_NETWORK_ERROR)

    # -- inspection -------------------------------------------------------------------------------

    def test_inspect_mcp(self) -> None:
        inspection = self.client.inspect_mcp(self.s["mcpEndpoint"])
        self.assertEqual(inspection["status"], "INSPECTED", inspection["headline"])
        self.assertEqual(inspection["endpoint"], self.s["mcpEndpoint"])
        self.assertGreaterEqual(len(inspection["tools"]), 1)
        # The web view of the same inspection, and its form.
        page = self.client.mcp_inspection_page(self.s["mcpEndpoint"])
        self.assertIn('data-status="INSPECTED"', page)
        self.assertIn('action="/mcp"', self.client.mcp_inspection_page())

    def test_inspect_a2a(self) -> None:
        inspection = self.client.inspect_a2a(self.s["a2aUrl"])
        self.assertTrue(inspection["cardUrl"].startswith(self.s["a2aUrl"]))
        self.assertEqual([sig["status"] for sig in inspection["signatures"]], ["VALID"], inspection["headline"])

    def test_inspect_problems_are_svc_errors(self) -> None:
        with self.assertRaises(SvcError) as caught:
            self.client.inspect_mcp("not a url")
        self.assertEqual(caught.exception.status, 400)


class MonitoringTest(unittest.TestCase):
    """The operator monitoring calls: ``monitoringUrl`` is a direct daemon started with
    SVC_ADMIN_TOKEN = ``adminToken`` (and SVC_EGRESS_ALLOW=127.0.0.0/8, so a webhook URL on
    loopback passes its egress policy); ``daemonUrl`` has no operator token."""

    #: Nothing listens there; only the egress policy of the registration is checked.
    HOOK = "https://127.0.0.1:9/hook"

    s: Dict[str, Any]
    operator: SvcClient

    @classmethod
    def setUpClass(cls) -> None:
        cls.s = load_scenario()
        cls.operator = SvcClient(cls.s["monitoringUrl"], timeout=30, admin_token=cls.s["adminToken"])

    def test_create_list_events_status_delete(self) -> None:
        created = self.operator.create_watch(self.s["didKey"], self.HOOK, interval_seconds=300)
        self.assertTrue(created["secret"].startswith("whsec_"))
        self.assertTrue(created["note"])
        watch = created["watch"]
        self.assertEqual((watch["did"], watch["webhook"], watch["intervalSeconds"], watch["active"]), (self.s["didKey"], self.HOOK, 300, True))
        watch_id = watch["id"]
        self.assertRegex(watch_id, r"^[0-9]+$")

        listed = self.operator.list_watches()
        mine = [w for w in listed["watches"] if w["id"] == watch_id]
        self.assertEqual(len(mine), 1)
        self.assertEqual((mine[0]["did"], mine[0]["webhook"]), (self.s["didKey"], self.HOOK))
        # The secret is shown once, at creation: never in a listing.
        self.assertNotIn(created["secret"], json.dumps(listed))
        for listed_watch in listed["watches"]:
            self.assertNotIn("secret", listed_watch)

        self.assertEqual(self.operator.list_monitor_events(watch_id=watch_id), {"events": []})
        self.assertIsInstance(self.operator.list_monitor_events()["events"], list)
        # A did:key never changes: a check finds nothing to report.
        self.assertEqual(self.operator.check_watch(watch_id), {"eventId": None, "changed": False, "delivery": "none"})
        # Enabling a webhook that was not disabled is harmless: the watch comes back as it was.
        enabled = self.operator.enable_watch_webhook(watch_id)
        self.assertEqual((enabled["watch"]["id"], enabled["watch"]["webhookDisabled"]), (watch_id, None))
        with self.assertRaises(SvcError) as caught:
            self.operator.list_event_attempts("evt_999999999")
        self.assertEqual((caught.exception.code, caught.exception.status), ("NOT_FOUND", 404))

        status = self.operator.monitoring_status()
        self.assertEqual(status["watches"], len(listed["watches"]))
        self.assertGreaterEqual(status["watches"], 1)
        self.assertGreaterEqual(status["watchLimit"], status["watches"])

        # Read only: counts at the cutoff normalised to UTC (a fraction rounds up to the next second).
        preview = self.operator.monitoring_retention_preview("2030-01-01T02:00:00.5+02:00")
        self.assertEqual((preview["dryRun"], preview["cutoff"]), (True, "2030-01-01T00:00:01Z"))
        for n in preview["candidateCounts"].values():
            self.assertIsInstance(n, int)
            self.assertGreaterEqual(n, 0)
        self.assertTrue(preview["preservationRules"])
        with self.assertRaises(SvcError) as caught:
            self.operator.retention_preview("yesterday")
        self.assertEqual((caught.exception.code, caught.exception.status), ("INVALID_OPTIONS", 400))

        self.assertIsNone(self.operator.delete_watch(watch_id))
        self.assertNotIn(watch_id, [w["id"] for w in self.operator.list_watches()["watches"]])
        with self.assertRaises(SvcError) as caught:
            self.operator.delete_watch(watch_id)
        self.assertEqual((caught.exception.code, caught.exception.status), ("NOT_FOUND", 404))

    def test_without_the_token_unauthorized(self) -> None:
        anonymous = SvcClient(self.s["monitoringUrl"], timeout=30)
        calls = {
            "create_watch": lambda: anonymous.create_watch(self.s["didKey"], self.HOOK),
            "list_watches": anonymous.list_watches,
            "check_watch": lambda: anonymous.check_watch("1"),
            "delete_watch": lambda: anonymous.delete_watch("1"),
            "enable_watch_webhook": lambda: anonymous.enable_watch_webhook("1"),
            "list_event_attempts": lambda: anonymous.list_event_attempts("evt_1"),
            "list_monitor_events": anonymous.list_monitor_events,
            "monitoring_status": anonymous.monitoring_status,
            "monitoring_retention_preview": lambda: anonymous.monitoring_retention_preview("2030-01-01T00:00:00Z"),
        }
        for name, call in calls.items():
            with self.subTest(call=name), self.assertRaises(SvcError) as caught:
                call()
            self.assertEqual((caught.exception.code, caught.exception.status), ("UNAUTHORIZED", 401))
        wrong = SvcClient(self.s["monitoringUrl"], timeout=30, admin_token=self.s["adminToken"] + "x")
        with self.assertRaises(SvcError) as caught:
            wrong.list_watches()
        self.assertEqual((caught.exception.code, caught.exception.status), ("UNAUTHORIZED", 401))

    def test_a_daemon_without_an_operator_token_monitoring_disabled(self) -> None:
        for token in (self.s["adminToken"], None):
            client = SvcClient(self.s["daemonUrl"], timeout=30, admin_token=token)
            for name, call in (("monitoring_status", client.monitoring_status), ("create_watch", lambda: client.create_watch(self.s["didKey"], self.HOOK)), ("delete_watch", lambda: client.delete_watch("1"))):
                with self.subTest(call=name, token=token is not None), self.assertRaises(SvcError) as caught:
                    call()
                self.assertEqual((caught.exception.code, caught.exception.status), ("MONITORING_DISABLED", 501))

    def test_the_token_is_in_no_error(self) -> None:
        token = self.s["adminToken"]
        with self.assertRaises(SvcError) as caught:
            SvcClient(self.s["unreachableUrl"], timeout=10, admin_token=token).list_watches()
        error = caught.exception
        self.assertEqual((error.code, error.status), (CLIENT_NETWORK_ERROR, 0))
        self.assertNotIn(token, f"{error} {error.detail} {error.problem} {error.cause!r}")
        self.assertNotIn(token, repr(self.operator))


class PublicDaemonTest(unittest.TestCase):
    """The public profile: standard budget 20/min per client; right after it is used up the
    daemon answers 429 RATE_LIMITED with Retry-After (3 s, one token every 3 s)."""

    s: Dict[str, Any]

    @classmethod
    def setUpClass(cls) -> None:
        cls.s = load_scenario()

    def exhaust(self, client: SvcClient) -> SvcError:
        for _ in range(60):
            try:
                client.status()
            except SvcError as error:
                return error
        self.fail("60 calls of a standard route never answered 429 on the public daemon")

    def test_rate_limited_surfaces_retry_after(self) -> None:
        error = self.exhaust(SvcClient(self.s["publicUrl"]))
        self.assertEqual((error.code, error.status), ("RATE_LIMITED", 429))
        self.assertIsInstance(error.retry_after, int)
        assert error.retry_after is not None
        self.assertGreaterEqual(error.retry_after, 1)
        self.assertLessEqual(error.retry_after, 3)
        self.assertEqual(error.problem.get("retryAfter"), error.retry_after)

    def test_retry_waits_the_retry_after_it_was_given(self) -> None:
        client = SvcClient(self.s["publicUrl"])
        self.exhaust(client)
        seen: List[SvcError] = []
        sleep = Recorder(really=True)

        def call() -> Any:
            try:
                return client.status()
            except SvcError as error:
                seen.append(error)
                raise

        started = time.monotonic()
        status = with_retry(call, RetryPolicy(attempts=4, base_delay=0.1, sleep=sleep))
        self.assertEqual(status["profile"], "public")
        self.assertGreaterEqual(len(seen), 1)
        self.assertEqual(len(sleep.calls), len(seen))
        for error, waited in zip(seen, sleep.calls):
            self.assertEqual(error.code, "RATE_LIMITED")
            assert error.retry_after is not None
            self.assertGreaterEqual(waited, error.retry_after)
            self.assertLessEqual(waited, error.retry_after + 1.0)
        self.assertGreaterEqual(time.monotonic() - started, seen[0].retry_after or 0)

    def test_client_retry_policy_succeeds_after_the_429(self) -> None:
        client = SvcClient(self.s["publicUrl"])
        self.exhaust(client)
        sleep = Recorder(really=True)
        status = client.with_retry(RetryPolicy(attempts=4, base_delay=0.1, sleep=sleep)).status()
        self.assertEqual(status["profile"], "public")
        self.assertGreaterEqual(len(sleep.calls), 1)
        self.assertGreaterEqual(sleep.calls[0], 1.0)  # Retry-After is whole seconds, at least 1


class SignedResultsTest(unittest.TestCase):
    """Signed results (docs/daemon.md#signed-results): ``daemonUrl`` signs as the did:key of an
    Ed25519 key, ``monitoringUrl`` as a did:web of the loopback host (P-256), ``publicUrl`` has no
    key. The client checks each signature itself: the did:key decoded, the did:web's did.json
    fetched over HTTPS (trusting the scenario's CA)."""

    s: Dict[str, Any]
    client: SvcClient
    web: SvcClient
    web_keys: Any

    @classmethod
    def setUpClass(cls) -> None:
        cls.s = load_scenario()
        for key in ("signer", "webSigner", "caFile"):
            if key not in cls.s:
                raise AssertionError(f"the scenario has no {key!r}")
        cls.client = SvcClient(cls.s["daemonUrl"], timeout=30)
        cls.web = SvcClient(cls.s["monitoringUrl"], timeout=30)
        # staticmethod: a function kept on the class would be bound to each test as a method.
        cls.web_keys = staticmethod(default_key_resolver(context=ssl.create_default_context(cafile=cls.s["caFile"])))

    def test_resolve_and_verify_credential_signed_by_the_did_key_daemon(self) -> None:
        answer = self.client.resolve(self.s["didKey"], signed=True, expected_signer=self.s["signer"]["did"])
        self.assertEqual(answer["result"]["did"], self.s["didKey"])
        self.assertEqual(answer["signature"]["reason"], "VALID", answer["signature"]["detail"])
        self.assertIs(answer["signature"]["verified"], True)
        self.assertEqual(answer["signature"]["signer"], self.s["signer"])
        self.assertRegex(answer["jws"], r"^[A-Za-z0-9_-]+\.\.[A-Za-z0-9_-]+$")
        verified = self.client.verify_credential(self.s["credential"], signed=True, expected_signer=self.s["signer"]["did"])
        self.assertEqual(verified["result"]["status"], "VALID")
        self.assertEqual(verified["signature"]["reason"], "VALID", verified["signature"]["detail"])
        p = self.s["presentation"]
        presented = self.client.verify_presentation(
            p["object"], challenge=p["challenge"], domain=p["domain"], signed=True, expected_signer=self.s["signer"]["did"]
        )
        self.assertEqual(presented["result"]["status"], "VALID")
        self.assertEqual(presented["signature"]["reason"], "VALID", presented["signature"]["detail"])
        # Unsigned, the call returns the result itself.
        self.assertEqual(self.client.resolve(self.s["didKey"])["did"], self.s["didKey"])

    def test_inspections_signed_by_the_did_web_daemon(self) -> None:
        signer = self.s["webSigner"]
        mcp = self.web.inspect_mcp(self.s["mcpEndpoint"], signed=True, expected_signer=signer["did"], resolve_key=self.web_keys)
        self.assertEqual(mcp["signature"]["reason"], "VALID", mcp["signature"]["detail"])
        self.assertEqual(mcp["signature"]["signer"], signer)
        a2a = self.web.inspect_a2a(self.s["a2aUrl"], signed=True, expected_signer=signer["did"], resolve_key=self.web_keys)
        self.assertEqual(a2a["signature"]["reason"], "VALID", a2a["signature"]["detail"])

    def test_edited_and_another_key(self) -> None:
        answer = self.client.resolve(self.s["didKey"], signed=True)
        result, jws = answer["result"], answer["jws"]
        edited = copy.deepcopy(result)
        edited["verdict"]["outcome"] = "DEACTIVATED"
        self.assertEqual(verify_result_signature(edited, jws)["reason"], "EDITED")
        self.assertEqual(verify_result_signature(result, jws, expected_signer=self.s["webSigner"]["did"])["reason"], "WRONG_KEY")
        # Another Ed25519 key (RFC 8032's first test key) under this kid: not the key that signed.
        rfc8032 = {"kty": "OKP", "crv": "Ed25519", "x": "11qYAYKxCrfVS_7TyWQHOg7hcvPapiMlrwIaaPcHURo"}
        wrong = verify_result_signature(result, jws, resolve_key=lambda kid: rfc8032)
        self.assertEqual(wrong["reason"], "WRONG_KEY", wrong["detail"])
        self.assertEqual(verify_result_signature(result, jws)["reason"], "VALID")

    def test_a_signed_evidence_bundle_verifies_and_an_edit_is_edited(self) -> None:
        fetched = self.client.resolve_bundle(self.s["didKey"], expected_signer=self.s["signer"]["did"])
        bundle, signature = fetched["bundle"], fetched["signature"]
        self.assertEqual(bundle["command"], {"kind": "resolve", "subject": self.s["didKey"], "options": {}})
        self.assertEqual(json.loads(fetched["bytes"].decode("utf-8")), bundle)
        assert signature is not None
        self.assertEqual(signature["reason"], "VALID", signature["detail"])
        self.assertIs(signature["verified"], True)
        self.assertEqual(signature["signer"], self.s["signer"])
        edited = copy.deepcopy(bundle)
        edited["observedAt"] = "2000-01-01T00:00:00.000Z"
        check = verify_bundle_signature(edited)
        assert check is not None
        self.assertEqual(check["reason"], "EDITED", check["detail"])
        self.assertTrue(check["detail"].startswith("The bundle was changed after it was signed"))
        self.assertEqual(verify_bundle_signature(bundle)["reason"], "VALID")  # type: ignore[index]

    def test_a_daemon_without_a_key_refuses_signed(self) -> None:
        # The public daemon's budget may be used up by PublicDaemonTest: a 429 is waited out.
        client = SvcClient(self.s["publicUrl"], timeout=30, retry=RetryPolicy(attempts=6, base_delay=0.5))
        with self.assertRaises(SvcError) as raised:
            client.resolve(self.s["didKey"], signed=True)
        self.assertEqual((raised.exception.code, raised.exception.status), ("INVALID_OPTIONS", 400))
        self.assertIn("SVC_SIGNING_KEY", raised.exception.detail)


if __name__ == "__main__":
    unittest.main()
