"""The generated types and operation table against the committed openapi.json, the client's
coverage of the operations, its documentation, and Python 3.9 syntax (offline)."""
from __future__ import annotations

import ast
import inspect
import json
import re
import typing
import unittest
from pathlib import Path
from typing import Any, Dict

import svc_client
from svc_client import OPERATIONS, SvcClient, types

PACKAGE = Path(svc_client.__file__).resolve().parent
CLIENT_ROOT = PACKAGE.parent
REPO_ROOT = CLIENT_ROOT.parent.parent
OPENAPI = REPO_ROOT / "openapi.json"


def snake(operation_id: str) -> str:
    """fastVerifyDid → fast_verify_did, inspectA2a → inspect_a2a, openApi → open_api."""
    return re.sub(r"(?<!^)(?=[A-Z])", "_", operation_id).lower()


def load_document() -> Dict[str, Any]:
    with open(OPENAPI, encoding="utf-8") as f:
        return json.load(f)


class OperationsTest(unittest.TestCase):
    def test_every_operation_has_a_method(self) -> None:
        # The session core's operations (session*) are reached only through the daemon's
        # in-process cookie gateway with its bridge secret: no client calls them.
        missing = [op for op in OPERATIONS if not op.startswith("session") and not callable(getattr(SvcClient, snake(op), None))]
        self.assertEqual(missing, [])
        self.assertEqual(len(OPERATIONS), 76)

    def test_the_snake_case_names(self) -> None:
        self.assertEqual(snake("fastVerifyDid"), "fast_verify_did")
        self.assertEqual(snake("resolveW3cPost"), "resolve_w3c_post")
        self.assertEqual(snake("inspectA2a"), "inspect_a2a")
        self.assertEqual(snake("openApi"), "open_api")

    def test_the_table_is_the_documents(self) -> None:
        doc = load_document()
        seen = {}
        for path, item in doc["paths"].items():
            for method, op in item.items():
                seen[op["operationId"]] = {
                    "method": method.upper(),
                    "path": path,
                    "budget": op.get("x-svc-budget"),
                    "path_params": tuple(p["name"] for p in op.get("parameters", []) if p["in"] == "path"),
                    "query": tuple(p["name"] for p in op.get("parameters", []) if p["in"] == "query"),
                }
        table = {op: {k: spec[k] for k in ("method", "path", "budget", "path_params", "query")} for op, spec in OPERATIONS.items()}
        self.assertEqual(table, seen)

    def test_result_statuses(self) -> None:
        self.assertEqual(OPERATIONS["resolve"]["results"], (200, 410))
        self.assertEqual(OPERATIONS["resolveW3c"]["results"], (200, 303, 410))
        self.assertEqual(OPERATIONS["history"]["results"], (200,))
        # The VC-API binding: a credential that does not verify is a 400 result (or a problem).
        self.assertEqual(OPERATIONS["verifyCredentialVcApi"]["results"], (200, 400))
        self.assertEqual(OPERATIONS["verifyPresentationVcApi"]["results"], (200, 400))
        self.assertEqual(OPERATIONS["verifyTool"]["response"], "Authorization")
        self.assertEqual(OPERATIONS["createWatch"]["results"], (201,))
        self.assertEqual((OPERATIONS["deleteWatch"]["method"], OPERATIONS["deleteWatch"]["results"]), ("DELETE", (204,)))


class TypesTest(unittest.TestCase):
    def typed_dicts(self) -> Dict[str, Any]:
        return {name: getattr(types, name) for name in types.__all__ if isinstance(getattr(types, name), type) and issubclass(getattr(types, name), dict)}

    def test_every_component_has_a_type(self) -> None:
        doc = load_document()
        missing = [name for name in doc["components"]["schemas"] if not hasattr(types, name)]
        self.assertEqual(missing, [])

    def test_required_and_optional_members_follow_the_document(self) -> None:
        doc = load_document()
        checked = 0
        for name, schema in doc["components"]["schemas"].items():
            if schema.get("type") != "object" or not schema.get("properties"):
                continue
            cls = getattr(types, name)
            with self.subTest(schema=name):
                self.assertEqual(set(cls.__required_keys__), set(schema.get("required", [])))
                self.assertEqual(set(cls.__required_keys__) | set(cls.__optional_keys__), set(schema["properties"]))
            checked += 1
        self.assertGreater(checked, 50)

    def test_every_annotation_resolves(self) -> None:
        for name, cls in self.typed_dicts().items():
            with self.subTest(type=name):
                typing.get_type_hints(cls)

    def test_literals_and_nullables(self) -> None:
        hints = typing.get_type_hints(types.Authorization)
        self.assertEqual(typing.get_args(hints["decision"]), ("ALLOW", "DENY"))
        self.assertEqual(hints["agent"], typing.Optional[str])
        self.assertEqual(typing.get_args(types.ChainStatus), ("VALID", "INVALID", "INDETERMINATE", "MALFORMED"))
        self.assertIn("@context", typing.get_type_hints(types.W3cResolutionResult))


class DocumentationTest(unittest.TestCase):
    def test_every_public_name_has_a_docstring(self) -> None:
        undocumented = []
        for name in svc_client.__all__:
            obj = getattr(svc_client, name)
            if (inspect.isclass(obj) or inspect.isfunction(obj) or inspect.ismodule(obj)) and not inspect.getdoc(obj):
                undocumented.append(name)
        for name, member in inspect.getmembers(SvcClient, inspect.isfunction):
            if not name.startswith("_") and not inspect.getdoc(member):
                undocumented.append(f"SvcClient.{name}")
        for cls in (svc_client.RetryPolicy, svc_client.SvcError, svc_client.SseParser):
            for name, member in inspect.getmembers(cls, inspect.isfunction):
                if not name.startswith("_") and member.__qualname__.startswith(cls.__name__) and not inspect.getdoc(member):
                    undocumented.append(f"{cls.__name__}.{name}")
        self.assertEqual(undocumented, [])


class PythonVersionTest(unittest.TestCase):
    def test_sources_parse_as_python_3_9(self) -> None:
        files = sorted(PACKAGE.glob("*.py")) + sorted((CLIENT_ROOT / "tests").glob("*.py"))
        self.assertGreater(len(files), 10)
        for path in files:
            with self.subTest(file=path.name):
                ast.parse(path.read_text(encoding="utf-8"), filename=str(path), feature_version=(3, 9))

    def test_no_runtime_union_operator_or_match(self) -> None:
        # ast's feature_version does not catch `X | Y` evaluated at run time (3.10): look for it
        # outside annotations, where `from __future__ import annotations` keeps it unevaluated.
        for path in sorted(PACKAGE.glob("*.py")):
            tree = ast.parse(path.read_text(encoding="utf-8"))
            with self.subTest(file=path.name):
                self.assertIn("annotations", [alias.name for node in tree.body if isinstance(node, ast.ImportFrom) and node.module == "__future__" for alias in node.names])
                for node in ast.walk(tree):
                    if isinstance(node, ast.Call) and getattr(node.func, "id", None) == "isinstance" and len(node.args) == 2:
                        self.assertNotIsInstance(node.args[1], ast.BinOp, f"isinstance with X | Y at line {node.lineno}")


if __name__ == "__main__":
    unittest.main()
