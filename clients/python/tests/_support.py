"""Test support: the daemon scenario, and a small real HTTP server for transport tests (a real
socket on 127.0.0.1 answering what the test scripts; it stands in for a misbehaving proxy or
network, never for svc itself)."""
from __future__ import annotations

import http.server
import json
import os
import socket
import threading
import time
import unittest
from typing import Any, Callable, Dict, List, Optional, Tuple, Union

SCENARIO_ENV = "SVC_CLIENT_SCENARIO"


def load_scenario() -> Dict[str, Any]:
    """The scenario written by test/integration/client-python.e2e.test.ts, or SkipTest."""
    path = os.environ.get(SCENARIO_ENV)
    if not path:
        raise unittest.SkipTest(
            f"{SCENARIO_ENV} is not set: these tests need the real daemons of the client scenario, "
            "set by npm test (test/integration/client-python.e2e.test.ts starts them and runs this suite)"
        )
    with open(path, encoding="utf-8") as f:
        scenario = json.load(f)
    for key in ("daemonUrl", "publicUrl", "monitoringUrl", "adminToken", "unreachableUrl", "didKey", "didWeb", "credential", "delegation"):
        if key not in scenario:
            raise AssertionError(f"the scenario file {path} has no {key!r}")
    return scenario


class Recorded:
    """One request the scripted server received."""

    def __init__(self, method: str, path: str, headers: Dict[str, str], body: bytes) -> None:
        self.method = method
        self.path = path
        self.headers = headers
        self.body = body


# A scripted answer: (status, headers, body). The body is bytes, or a callable writing to the
# socket file itself (for streams); the connection closes after each answer (HTTP/1.0).
Answer = Tuple[int, Dict[str, str], Union[bytes, Callable[[Any], None]]]


class ScriptedServer:
    """A real HTTP server on 127.0.0.1 answering the scripted answers in order (the last one
    repeats), recording every request. Use as a context manager."""

    def __init__(self, answers: List[Answer]) -> None:
        self.answers = list(answers)
        self.requests: List[Recorded] = []
        server = self

        class Handler(http.server.BaseHTTPRequestHandler):
            protocol_version = "HTTP/1.0"

            def log_message(self, *args: Any) -> None:  # quiet
                pass

            def _answer(self) -> None:
                length = int(self.headers.get("Content-Length") or 0)
                body = self.rfile.read(length) if length else b""
                server.requests.append(Recorded(self.command, self.path, {k.lower(): v for k, v in self.headers.items()}, body))
                index = min(len(server.requests), len(server.answers)) - 1
                status, headers, payload = server.answers[index]
                self.send_response(status)
                for name, value in headers.items():
                    self.send_header(name, value)
                if isinstance(payload, bytes):
                    self.send_header("Content-Length", str(len(payload)))
                    self.end_headers()
                    self.wfile.write(payload)
                else:
                    self.end_headers()
                    self.wfile.flush()
                    payload(self.wfile)
                self.wfile.flush()

            do_GET = _answer
            do_POST = _answer
            do_DELETE = _answer

        self._httpd = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self._httpd.daemon_threads = True
        self.url = f"http://127.0.0.1:{self._httpd.server_address[1]}"
        self._thread = threading.Thread(target=self._httpd.serve_forever, kwargs={"poll_interval": 0.02}, daemon=True)

    def __enter__(self) -> "ScriptedServer":
        self._thread.start()
        return self

    def __exit__(self, *exc: Any) -> None:
        self._httpd.shutdown()
        self._httpd.server_close()


def json_answer(status: int, body: Any, headers: Optional[Dict[str, str]] = None, content_type: str = "application/json") -> Answer:
    """A JSON answer."""
    return status, {"Content-Type": content_type, **(headers or {})}, json.dumps(body).encode("utf-8")


def problem_answer(status: int, code: str, headers: Optional[Dict[str, str]] = None) -> Answer:
    """A problem+json answer."""
    problem = {"type": f"urn:svc:problems#{code}", "title": code.title(), "status": status, "detail": f"{code} detail", "code": code}
    return json_answer(status, problem, headers, "application/problem+json")


def closed_port_url() -> str:
    """An http origin on a port where nothing listens."""
    s = socket.socket()
    s.bind(("127.0.0.1", 0))
    port = s.getsockname()[1]
    s.close()
    return f"http://127.0.0.1:{port}"


class Recorder:
    """A sleep function that records what it was asked (and sleeps for real when told to)."""

    def __init__(self, really: bool = False) -> None:
        self.calls: List[float] = []
        self.really = really

    def __call__(self, seconds: float) -> None:
        self.calls.append(seconds)
        if self.really:
            time.sleep(seconds)
