"""The verifier of signed results, offline: RFC 8785 as ECMAScript writes numbers, Ed25519 on the
RFC 8032 vectors, ECDSA P-256 on a vector made with OpenSSL (node:crypto), did:key decoding (a
compressed P-256 point decompressed), and the reasons a header alone decides. The cross-check
with svc's own signer (every reason, both curves) is test/integration/signature-verifiers.e2e.test.ts."""
from __future__ import annotations

import unittest

from svc_client import verify_result_signature
from svc_client.signature import canonical_json, did_key_jwk, ed25519_verify, p256_verify

# RFC 8032 §7.1, tests 1–3: (public key, message, signature).
ED25519_VECTORS = [
    (
        "d75a980182b10ab7d54bfed3c964073a0ee172f3daa62325af021a68f707511a",
        "",
        "e5564300c360ac729086e2cc806e828a84877f1eb8e5d974d873e065224901555fb8821590a33bacc61e39701cf9b46bd25bf5f0595bbe24655141438e7a100b",
    ),
    (
        "3d4017c3e843895a92b70aa74d1b7ebc9c982ccf2ec4968cc0cd55f12af4660c",
        "72",
        "92a009a9f0d4cab8720e820b5f642540a2b27b5416503f8fb3762223ebdb69da085ac1e43e15996e458f3613d0f11d8c387b2eaeb4302aeeb00d291612bb0c00",
    ),
    (
        "fc51cd8e6218a1a38da47ed00230f0580816ed13ba3303ac5deb911548908025",
        "af82",
        "6291d657deec24024827e69c3abe01a30ce548a284743a445e3680d7db5ac3ac18ff9b538d16f290ae67f760984dc6594a7c15e9716ed28dc027beceea1ec40a",
    ),
]

# Made with node:crypto (OpenSSL): a P-256 key, the message "svc signed results", its signature r‖s.
P256 = {
    "x": "aea70b6416a51e76d6ce998c042a89f4f224ed2601cba86195e3fae31214514e",
    "y": "7346bac46002c16ddad4d874d341d788faa2a539aecebad97e042fc248403cb8",
    "msg": "737663207369676e656420726573756c7473",
    "sig": "44bbe48fa9dfd1983ed5f4de9499a3472fd2f8cd0ea19fdee25b9ed68fb078f4057d62fd10442d419055151777fa51c943601960d527a375b5cad322934192da",
}


class CanonicalJsonTest(unittest.TestCase):
    def test_numbers_as_ecmascript_writes_them(self) -> None:
        cases = [
            (1.0, "1"),
            (-0.0, "0"),
            (1.5, "1.5"),
            (100.0, "100"),
            (1e21, "1e+21"),
            (1e20, "100000000000000000000"),
            (123456789012345680000.0, "123456789012345680000"),
            (1e-7, "1e-7"),
            (0.000001, "0.000001"),
            (1.2e-10, "1.2e-10"),
            (-5e-324, "-5e-324"),
            (1.7976931348623157e308, "1.7976931348623157e+308"),
            (0.1 + 0.2, "0.30000000000000004"),
            (2**53, "9007199254740992"),
            (2**60, "1152921504606847000"),
            (-17, "-17"),
        ]
        for value, expected in cases:
            with self.subTest(value=value):
                self.assertEqual(canonical_json(value), expected)

    def test_members_sorted_by_utf16_code_units_strings_escaped_as_json_stringify(self) -> None:
        value = {"\U0001f600": 1, "\ufb33": 2, "b": [True, None], "a": "é\u2028\x07\"\\\n"}
        # U+1F600 is D83D DE00 in UTF-16: before U+FB33, though its code point is larger.
        self.assertEqual(canonical_json(value), '{"a":"é\u2028\\u0007\\"\\\\\\n","b":[true,null],"\U0001f600":1,"\ufb33":2}')

    def test_what_has_no_form(self) -> None:
        for value in (float("nan"), float("inf"), {"a": "\ud800"}, {1: "x"}, object()):
            with self.subTest(value=repr(value)):
                with self.assertRaises(ValueError):
                    canonical_json(value)


class CurvesTest(unittest.TestCase):
    def test_ed25519_rfc8032_vectors(self) -> None:
        for public, message, signature in ED25519_VECTORS:
            pk, msg, sig = bytes.fromhex(public), bytes.fromhex(message), bytes.fromhex(signature)
            self.assertTrue(ed25519_verify(pk, msg, sig))
            self.assertFalse(ed25519_verify(pk, msg + b"!", sig))
            self.assertFalse(ed25519_verify(pk, msg, sig[:63] + bytes([sig[63] ^ 1])))
            self.assertFalse(ed25519_verify(pk, msg, sig[:32]))

    def test_p256_openssl_vector(self) -> None:
        x, y = int(P256["x"], 16), int(P256["y"], 16)
        msg, sig = bytes.fromhex(P256["msg"]), bytes.fromhex(P256["sig"])
        self.assertTrue(p256_verify(x, y, msg, sig))
        self.assertFalse(p256_verify(x, y, msg + b"!", sig))
        self.assertFalse(p256_verify(x, y + 1, msg, sig))
        self.assertFalse(p256_verify(x, y, msg, sig[:32] + bytes(32)))


class DidKeyTest(unittest.TestCase):
    def test_ed25519_and_compressed_p256(self) -> None:
        # did:key test vectors of the W3C CCG did:key spec (Ed25519 and P-256).
        self.assertEqual(
            did_key_jwk("did:key:z6MkiTBz1ymuepAQ4HEHYSF1H8quG5GLVVQR3djdX3mDooWp"),
            {"kty": "OKP", "crv": "Ed25519", "x": "O2onvM62pC1io6jQKm8Nc2UyFXcd4kOmOsBIoYtZ2ik"},
        )
        self.assertEqual(
            did_key_jwk("did:key:zDnaerDaTF5BXEavCrfRZEk316dpbLsfPDZ3WJ5hRTPFU2169"),
            {
                "kty": "EC",
                "crv": "P-256",
                "x": "fyNYMN0976ci7xqiSdag3buk-ZCwgXU4kz9XNkBlNUI",
                "y": "hW2ojTNfH7Jbi8--CJUo3OCbH3y5n91g-IMA9MLMbTU",
            },
        )
        self.assertIsNone(did_key_jwk("did:key:zQ3shokFTS3brHcDQrn82RUDfCZESWL1ZdCEJwekUDPQiYBme"))  # secp256k1
        self.assertIsNone(did_key_jwk("did:key:not-base58-0OIl"))


class HeaderOnlyReasonsTest(unittest.TestCase):
    def test_malformed_and_unsupported(self) -> None:
        body = {"a": 1}
        self.assertEqual(
            verify_result_signature(body, None),
            {
                "verified": False,
                "reason": "MALFORMED",
                "detail": "The answer carries no svc-signature header: the daemon did not sign it.",
                "signer": None,
                "signedAt": None,
            },
        )
        self.assertEqual(verify_result_signature(body, "a.b.c")["reason"], "MALFORMED")
        self.assertEqual(verify_result_signature(body, "%%..AA")["reason"], "MALFORMED")
        # {"alg":"RS256","kid":"did:key:z6Mk#z6Mk","iat":1}
        head = "eyJhbGciOiJSUzI1NiIsImtpZCI6ImRpZDprZXk6ejZNayN6Nk1rIiwiaWF0IjoxfQ"
        check = verify_result_signature(body, head + "..AAAA")
        self.assertEqual((check["reason"], check["signer"], check["signedAt"]), ("UNSUPPORTED_ALG", {"did": "did:key:z6Mk", "kid": "did:key:z6Mk#z6Mk"}, "1970-01-01T00:00:01Z"))


if __name__ == "__main__":
    unittest.main()
