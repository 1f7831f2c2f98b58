"""Verifying svc's signed results (docs/daemon.md#signed-results in the svc repository), standard
library only.

``svc serve`` with a signing key answers a request that asked ``signed=true`` with the header
``svc-signature``: a compact detached JWS (RFC 7515 Appendix F, ``header..signature``) whose
payload is the RFC 8785 (JCS) form of the JSON body. :func:`verify_result_signature` checks it
(and :func:`verify_bundle_signature` an evidence bundle's embedded signature, typ
``svc-bundle+jws``):

    from svc_client import verify_result_signature
    check = verify_result_signature(body, header, expected_signer="did:web:svc.example.com")
    if not check["verified"]:
        print(check["reason"], check["detail"])

The signer's key is found without asking the daemon: a did:key is decoded here (Ed25519 0xed,
P-256 0x1200 with its compressed point decompressed), a did:web's did.json is fetched from its host
over HTTPS (the key must be listed under assertionMethod). Signatures are checked in pure Python:
Ed25519 (RFC 8032, cofactorless as OpenSSL checks it) and ECDSA P-256 with SHA-256 (r‖s).

The reasons and their order are svc's: MALFORMED, UNSUPPORTED_ALG, OTHER_CANONICAL_FORM, EDITED,
WRONG_KEY, UNKNOWN_KEY, then VALID. A failed check is a result, never an exception.

JCS here covers the JSON svc emits: objects, arrays, strings, booleans, null, integers (exact up
to 2**53; larger ones are written as the binary64 number ECMAScript would hold) and floats in
ECMAScript's shortest form (``1e+21``, ``1e-7``, ``0.000001``), as RFC 8785 §3.2.2.3 requires.
"""
from __future__ import annotations

import base64
import hashlib
import json
import math
import re
import time
import urllib.error
import urllib.parse
import urllib.request
from typing import Any, Callable, Dict, Mapping, Optional, Tuple, TypedDict

__all__ = [
    "BUNDLE_SIGNATURE_TYP",
    "SIGNATURE_HEADER",
    "SIGNATURE_PROVES",
    "ResultSignature",
    "SignedResult",
    "FetchedBundle",
    "KeyResolver",
    "canonical_json",
    "did_key_jwk",
    "default_key_resolver",
    "verify_result_signature",
    "verify_bundle_signature",
]

#: The response header of a signed result.
SIGNATURE_HEADER = "svc-signature"

#: What a valid signature proves, and what it does not.
SIGNATURE_PROVES = (
    "A valid signature proves that the svc instance holding this key reported exactly these observations at the signing time; "
    "it does not prove that the observed host, document or agent is honest, nor that the observations are still current."
)

_RESULT_TYP = "svc-result+jws"

#: The ``typ`` of an evidence bundle's signature.
BUNDLE_SIGNATURE_TYP = "svc-bundle+jws"


class ResultSignature(TypedDict):
    """What a signature check found: only ``verified`` True (reason ``VALID``) means the result is
    the signer's. ``signer`` (``{"did", "kid"}``) and ``signedAt`` (RFC 3339) are what the
    signature names (None when it could not be read); the signer is established only when verified."""

    verified: bool
    reason: str
    detail: str
    signer: Optional[Dict[str, str]]
    signedAt: Optional[str]


class SignedResult(TypedDict):
    """A signed call's answer: the result as the daemon answered it, the check of its signature,
    and the ``svc-signature`` header as received (None when there was none)."""

    result: Dict[str, Any]
    signature: ResultSignature
    jws: Optional[str]


class FetchedBundle(TypedDict):
    """An evidence bundle as the daemon served it: the bundle (parsed), its bytes exactly as
    received (what to store and hand to ``svc verify-bundle``), and the check of its signature —
    None when the bundle is unsigned."""

    bundle: Dict[str, Any]
    bytes: bytes
    signature: Optional[ResultSignature]


#: kid → the public JWK (a dict with kty, crv, x[, y]) or None when the kid names no key; may raise
#: an exception whose message says why the key cannot be found.
KeyResolver = Callable[[str], Optional[Mapping[str, Any]]]


# -- RFC 8785 -------------------------------------------------------------------------------

_LONE_SURROGATE = re.compile("[\ud800-\udfff]")


def _number(value: Any) -> str:
    """ECMAScript's Number::toString of a JSON number (RFC 8785 §3.2.2.3)."""
    if isinstance(value, int):
        if -(2**53) <= value <= 2**53:
            return str(value)
        value = float(value)  # what a binary64 reader holds
    if not math.isfinite(value):
        raise ValueError("a number is not finite")
    if value == 0:
        return "0"
    text = repr(value)  # the shortest digits that round-trip, as ECMAScript chooses them
    sign = "-" if text.startswith("-") else ""
    text = text.lstrip("-")
    mantissa, _, exponent = text.partition("e")
    whole, _, fraction = mantissa.partition(".")
    digits = whole + fraction
    point = len(whole) + (int(exponent) if exponent else 0)
    stripped = digits.lstrip("0")
    point -= len(digits) - len(stripped)
    digits = stripped.rstrip("0")
    k, n = len(digits), point
    if k <= n <= 21:
        out = digits + "0" * (n - k)
    elif 0 < n <= 21:
        out = digits[:n] + "." + digits[n:]
    elif -6 < n <= 0:
        out = "0." + "0" * (-n) + digits
    else:
        e = n - 1
        out = digits[0] + ("." + digits[1:] if k > 1 else "") + "e" + ("+" if e >= 0 else "-") + str(abs(e))
    return sign + out


def _json(value: Any, sort: bool, depth: int = 0) -> str:
    if depth > 128:
        raise ValueError("nested too deeply")
    if value is None:
        return "null"
    if value is True:
        return "true"
    if value is False:
        return "false"
    if isinstance(value, str):
        if _LONE_SURROGATE.search(value):
            raise ValueError("a string holds a lone surrogate")
        return json.dumps(value, ensure_ascii=False)
    if isinstance(value, (int, float)):
        return _number(value)
    if isinstance(value, (list, tuple)):
        return "[" + ",".join(_json(v, sort, depth + 1) for v in value) + "]"
    if isinstance(value, dict):
        names = list(value.keys())
        if not all(isinstance(name, str) for name in names):
            raise ValueError("an object has a member name that is not a string")
        if sort:
            # By UTF-16 code units (RFC 8785 §3.2.3): big-endian UTF-16 bytes compare the same way.
            names.sort(key=lambda name: name.encode("utf-16-be", "surrogatepass"))
        return "{" + ",".join(_json(name, sort, depth + 1) + ":" + _json(value[name], sort, depth + 1) for name in names) + "}"
    raise ValueError(f"a {type(value).__name__} has no JSON form")


def canonical_json(value: Any) -> str:
    """The RFC 8785 form of a JSON value (as ``json.loads`` gives it); ValueError when it has none."""
    return _json(value, True)


# -- encodings ------------------------------------------------------------------------------

_B64URL = re.compile(r"[A-Za-z0-9_-]*")


def _b64url_decode(text: str) -> Optional[bytes]:
    if not _B64URL.fullmatch(text) or len(text) % 4 == 1:
        return None
    data = base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))
    return data if _b64url_encode(data) == text else None


def _b64url_encode(data: bytes) -> str:
    return base64.urlsafe_b64encode(data).decode("ascii").rstrip("=")


_BASE58 = "123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz"


def _base58_decode(text: str) -> Optional[bytes]:
    number = 0
    for char in text:
        index = _BASE58.find(char)
        if index < 0:
            return None
        number = number * 58 + index
    zeros = len(text) - len(text.lstrip("1"))
    body = number.to_bytes((number.bit_length() + 7) // 8, "big") if number else b""
    return b"\x00" * zeros + body


# -- curves ---------------------------------------------------------------------------------

# Ed25519 (RFC 8032 §5.1): twisted Edwards, extended coordinates (X, Y, Z, T).
_ED_P = 2**255 - 19
_ED_L = 2**252 + 27742317777372353535851937790883648493
_ED_D = -121665 * pow(121666, -1, _ED_P) % _ED_P
_ED_SQRT_M1 = pow(2, (_ED_P - 1) // 4, _ED_P)
_ED_GY = 4 * pow(5, -1, _ED_P) % _ED_P

_EdPoint = Tuple[int, int, int, int]


def _ed_add(a: _EdPoint, b: _EdPoint) -> _EdPoint:
    p = _ED_P
    x1, y1, z1, t1 = a
    x2, y2, z2, t2 = b
    aa = (y1 - x1) * (y2 - x2) % p
    bb = (y1 + x1) * (y2 + x2) % p
    cc = 2 * t1 * t2 * _ED_D % p
    dd = 2 * z1 * z2 % p
    e, f, g, h = bb - aa, dd - cc, dd + cc, bb + aa
    return (e * f % p, g * h % p, f * g % p, e * h % p)


def _ed_mul(scalar: int, point: _EdPoint) -> _EdPoint:
    result: _EdPoint = (0, 1, 1, 0)
    while scalar > 0:
        if scalar & 1:
            result = _ed_add(result, point)
        point = _ed_add(point, point)
        scalar >>= 1
    return result


def _ed_decompress(data: bytes) -> Optional[_EdPoint]:
    if len(data) != 32:
        return None
    y = int.from_bytes(data, "little")
    sign = y >> 255
    y &= (1 << 255) - 1
    if y >= _ED_P:
        return None
    x2 = (y * y - 1) * pow(_ED_D * y * y + 1, -1, _ED_P) % _ED_P
    if x2 == 0:
        if sign:
            return None
        x = 0
    else:
        x = pow(x2, (_ED_P + 3) // 8, _ED_P)
        if (x * x - x2) % _ED_P != 0:
            x = x * _ED_SQRT_M1 % _ED_P
        if (x * x - x2) % _ED_P != 0:
            return None
        if (x & 1) != sign:
            x = _ED_P - x
    return (x, y, 1, x * y % _ED_P)


def _ed_compress(point: _EdPoint) -> bytes:
    x, y, z, _ = point
    zi = pow(z, -1, _ED_P)
    x, y = x * zi % _ED_P, y * zi % _ED_P
    return (y | ((x & 1) << 255)).to_bytes(32, "little")


_ED_G = _ed_decompress(_ED_GY.to_bytes(32, "little"))


def ed25519_verify(public_key: bytes, message: bytes, signature: bytes) -> bool:
    """RFC 8032 §5.1.7: [S]B = R + [k]A, compared encoded (as OpenSSL, and so svc, checks it)."""
    if len(signature) != 64 or _ED_G is None:
        return False
    a = _ed_decompress(public_key)
    r = _ed_decompress(signature[:32])
    s = int.from_bytes(signature[32:], "little")
    if a is None or r is None or s >= _ED_L:
        return False
    k = int.from_bytes(hashlib.sha512(signature[:32] + public_key + message).digest(), "little") % _ED_L
    return _ed_compress(_ed_mul(s, _ED_G)) == _ed_compress(_ed_add(r, _ed_mul(k, a)))


# P-256 (SEC 2, FIPS 186-4): y² = x³ − 3x + b over p, order n; Jacobian coordinates (X, Y, Z).
_P256_P = 0xFFFFFFFF00000001000000000000000000000000FFFFFFFFFFFFFFFFFFFFFFFF
_P256_N = 0xFFFFFFFF00000000FFFFFFFFFFFFFFFFBCE6FAADA7179E84F3B9CAC2FC632551
_P256_B = 0x5AC635D8AA3A93E7B3EBBD55769886BC651D06B0CC53B0F63BCE3C3E27D2604B
_P256_G = (
    0x6B17D1F2E12C4247F8BCE6E563A440F277037D812DEB33A0F4A13945D898C296,
    0x4FE342E2FE1A7F9B8EE7EB4A7C0F9E162BCE33576B315ECECBB6406837BF51F5,
)

_JacPoint = Tuple[int, int, int]


def _jac_double(a: _JacPoint) -> _JacPoint:
    p = _P256_P
    x, y, z = a
    if z == 0 or y == 0:
        return (1, 1, 0)
    yy = y * y % p
    s = 4 * x * yy % p
    zz = z * z % p
    m = 3 * (x - zz) * (x + zz) % p  # a = −3
    x3 = (m * m - 2 * s) % p
    return (x3, (m * (s - x3) - 8 * yy * yy) % p, 2 * y * z % p)


def _jac_add(a: _JacPoint, b: _JacPoint) -> _JacPoint:
    p = _P256_P
    if a[2] == 0:
        return b
    if b[2] == 0:
        return a
    x1, y1, z1 = a
    x2, y2, z2 = b
    z1z1, z2z2 = z1 * z1 % p, z2 * z2 % p
    u1, u2 = x1 * z2z2 % p, x2 * z1z1 % p
    s1, s2 = y1 * z2 * z2z2 % p, y2 * z1 * z1z1 % p
    if u1 == u2:
        return _jac_double(a) if s1 == s2 else (1, 1, 0)
    h, r = (u2 - u1) % p, (s2 - s1) % p
    hh = h * h % p
    hhh = h * hh % p
    v = u1 * hh % p
    x3 = (r * r - hhh - 2 * v) % p
    return (x3, (r * (v - x3) - s1 * hhh) % p, h * z1 * z2 % p)


def _jac_mul(scalar: int, point: _JacPoint) -> _JacPoint:
    result: _JacPoint = (1, 1, 0)
    for bit in bin(scalar)[2:]:
        result = _jac_double(result)
        if bit == "1":
            result = _jac_add(result, point)
    return result


def _p256_on_curve(x: int, y: int) -> bool:
    return 0 <= x < _P256_P and 0 <= y < _P256_P and (y * y - (x * x * x - 3 * x + _P256_B)) % _P256_P == 0


def p256_verify(x: int, y: int, message: bytes, signature: bytes) -> bool:
    """ECDSA P-256 with SHA-256 (FIPS 186-4, section 6.4.2): the signature as JOSE writes it, r‖s."""
    if len(signature) != 64 or not _p256_on_curve(x, y):
        return False
    r, s = int.from_bytes(signature[:32], "big"), int.from_bytes(signature[32:], "big")
    if not (0 < r < _P256_N and 0 < s < _P256_N):
        return False
    e = int.from_bytes(hashlib.sha256(message).digest(), "big")
    w = pow(s, -1, _P256_N)
    point = _jac_add(_jac_mul(e * w % _P256_N, (_P256_G[0], _P256_G[1], 1)), _jac_mul(r * w % _P256_N, (x, y, 1)))
    if point[2] == 0:
        return False
    zi = pow(point[2], -1, _P256_P)
    return point[0] * zi * zi % _P256_P % _P256_N == r


def _p256_decompress(point: bytes) -> Optional[Dict[str, str]]:
    if len(point) != 33 or point[0] not in (2, 3):
        return None
    x = int.from_bytes(point[1:], "big")
    if x >= _P256_P:
        return None
    y2 = (x * x * x - 3 * x + _P256_B) % _P256_P
    y = pow(y2, (_P256_P + 1) // 4, _P256_P)
    if y * y % _P256_P != y2:
        return None
    if (y & 1) != (point[0] & 1):
        y = _P256_P - y
    return {"kty": "EC", "crv": "P-256", "x": _b64url_encode(point[1:]), "y": _b64url_encode(y.to_bytes(32, "big"))}


# -- keys of DIDs ---------------------------------------------------------------------------


def _multikey_jwk(multibase: str) -> Optional[Dict[str, str]]:
    if not multibase.startswith("z"):
        return None
    data = _base58_decode(multibase[1:])
    if data is None:
        return None
    if data[:2] == b"\xed\x01" and len(data) == 34:
        return {"kty": "OKP", "crv": "Ed25519", "x": _b64url_encode(data[2:])}
    if data[:2] == b"\x80\x24":
        return _p256_decompress(data[2:])
    return None


def did_key_jwk(did: str) -> Optional[Dict[str, str]]:
    """The one key of a did:key (Ed25519 or P-256) as a JWK; None for any other key or a malformed one."""
    match = re.fullmatch(r"did:key:(z[1-9A-HJ-NP-Za-km-z]+)", did)
    return _multikey_jwk(match.group(1)) if match else None


def _did_web_url(did: str) -> Optional[str]:
    match = re.fullmatch(r"did:web:([^:#?/]+)((?::[^:#?/]+)*)", did)
    if not match:
        return None
    host = urllib.parse.unquote(match.group(1))
    if not re.fullmatch(r"[A-Za-z0-9.-]+(?::[0-9]{1,5})?", host):
        return None
    path = [urllib.parse.quote(urllib.parse.unquote(segment), safe="") for segment in match.group(2).split(":")[1:]]
    return f"https://{host}/" + ("/".join(path) + "/did.json" if path else ".well-known/did.json")


def _absolute(did: str, value: Any) -> Optional[str]:
    if not isinstance(value, str):
        return None
    return did + value if value.startswith("#") else value


def _key_in_document(did: str, kid: str, document: Any) -> Optional[Dict[str, Any]]:
    if not isinstance(document, dict) or document.get("id") != did:
        raise LookupError(f"the document of {did} is not its DID document")
    asserted = document.get("assertionMethod") if isinstance(document.get("assertionMethod"), list) else []
    listed = document.get("verificationMethod") if isinstance(document.get("verificationMethod"), list) else []
    methods = [m for m in list(listed) + [a for a in asserted if isinstance(a, dict)] if isinstance(m, dict)]
    method = next((m for m in methods if _absolute(did, m.get("id")) == kid), None)
    if method is None:
        return None
    if not any(_absolute(did, a.get("id") if isinstance(a, dict) else a) == kid for a in asserted):
        raise LookupError(f"{did} lists {kid}, but not under assertionMethod")
    jwk = method.get("publicKeyJwk")
    if isinstance(jwk, dict) and isinstance(jwk.get("kty"), str):
        return {name: jwk[name] for name in ("kty", "crv", "x", "y") if name in jwk}
    if isinstance(method.get("publicKeyMultibase"), str):
        key = _multikey_jwk(method["publicKeyMultibase"])
        if key is not None:
            return key
    raise LookupError(f"{kid} holds no Ed25519 or P-256 key")


class _NoRedirect(urllib.request.HTTPRedirectHandler):
    """A did:web document is read where the DID names it: a redirect is not followed."""

    def redirect_request(self, req, fp, code, msg, headers, newurl):  # type: ignore[no-untyped-def]
        return None


def default_key_resolver(context: Any = None, timeout: float = 10.0) -> KeyResolver:
    """The default key lookup: a did:key decoded here; a did:web's did.json fetched over HTTPS
    (``context``: an ``ssl.SSLContext`` for hosts your system does not trust), the key listed under
    assertionMethod. Any other method raises (pass your own ``resolve_key``)."""
    opener = urllib.request.build_opener(urllib.request.HTTPSHandler(context=context), _NoRedirect())

    def resolve(kid: str) -> Optional[Mapping[str, Any]]:
        did, _, fragment = kid.partition("#")
        if did.startswith("did:key:"):
            return did_key_jwk(did) if fragment == did[len("did:key:"):] else None
        if did.startswith("did:web:"):
            url = _did_web_url(did)
            if url is None:
                raise LookupError(f"{did} is not a did:web this client can fetch")
            request = urllib.request.Request(url, headers={"Accept": "application/did+json, application/json"})
            try:
                with opener.open(request, timeout=timeout) as response:
                    raw = response.read(1024 * 1024 + 1)
            except urllib.error.HTTPError as error:
                raise LookupError(f"{url} answered {error.code}") from error
            except (urllib.error.URLError, OSError) as error:
                raise LookupError(f"{url} could not be fetched ({getattr(error, 'reason', error)})") from error
            if len(raw) > 1024 * 1024:
                raise LookupError(f"{url} is larger than 1 MiB")
            try:
                document = json.loads(raw.decode("utf-8"))
            except (UnicodeDecodeError, ValueError) as error:
                raise LookupError(f"{url} is not JSON") from error
            return _key_in_document(did, kid, document)
        raise LookupError(f"{':'.join(did.split(':')[:2])} signers are not resolved by this client; pass resolve_key")

    return resolve


# -- verification ---------------------------------------------------------------------------

#: 9999-12-31T23:59:59Z: a later iat has no RFC 3339 form.
_LAST_SECOND = 253402300799

_KID = re.compile(r"(did:[a-z0-9]+:[A-Za-z0-9._:%-]*[A-Za-z0-9._%-])#([A-Za-z0-9._~!$&'()*+,;=:@/?%-]+)")


def _iso(iat: int) -> str:
    return time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime(iat))


class _Read:
    def __init__(self, alg: str, kid: str, did: str, head: Dict[str, Any], iat: int, protected: str, signature: bytes) -> None:
        self.alg, self.kid, self.did, self.head, self.iat, self.protected, self.signature = alg, kid, did, head, iat, protected, signature


def _read(header: Optional[str]) -> Any:
    if header is None or header.strip() == "":
        return "the answer carries no svc-signature header: the daemon did not sign it"
    parts = header.strip().split(".")
    if len(parts) != 3:
        return "the signature is not a JWS: it must read header..signature"
    if parts[1] != "":
        return "the signature carries a payload; svc signatures are detached (header..signature), the value is the payload"
    data = _b64url_decode(parts[0])
    if not data:
        return "the protected header is not unpadded base64url"
    try:
        head = json.loads(data.decode("utf-8"))
    except (UnicodeDecodeError, ValueError):
        return "the protected header is not a JSON object"
    if not isinstance(head, dict):
        return "the protected header is not a JSON object"
    alg, kid, iat = head.get("alg"), head.get("kid"), head.get("iat")
    if not isinstance(alg, str) or alg == "":
        return 'the protected header has no "alg"'
    if not isinstance(kid, str):
        return 'the protected header has no "kid"'
    match = _KID.fullmatch(kid)
    if not match:
        return 'the "kid" is not a DID URL <did>#<key>'
    if isinstance(iat, bool) or not isinstance(iat, int) or not 0 <= iat <= _LAST_SECOND:
        return 'the protected header has no "iat" in whole seconds'
    signature = _b64url_decode(parts[2])
    if not signature:
        return "the signature is not unpadded base64url"
    return _Read(alg, kid, match.group(1), head, iat, parts[0], signature)


def _failure(reason: str, detail: str, read: Optional[_Read]) -> ResultSignature:
    return {
        "verified": False,
        "reason": reason,
        "detail": detail,
        "signer": {"did": read.did, "kid": read.kid} if read else None,
        "signedAt": _iso(read.iat) if read else None,
    }


def _capital(text: str) -> str:
    return text[:1].upper() + text[1:]


def _js(value: Any, limit: int) -> str:
    return json.dumps(str(value)[:limit], ensure_ascii=False)


def verify_result_signature(
    body: Any,
    header: Optional[str],
    expected_signer: Optional[str] = None,
    resolve_key: Optional[KeyResolver] = None,
) -> ResultSignature:
    """Check a signed result: ``body`` as parsed from the answer (``json.loads``), ``header`` its
    ``svc-signature`` value. ``expected_signer`` (a DID or kid): the svc instance you trust —
    another signer is WRONG_KEY. ``resolve_key``: finds the key of a kid (default:
    :func:`default_key_resolver`). Never raises for a bad signature."""
    return _verify_detached(body, header, _RESULT_TYP, "result", expected_signer, resolve_key)


def verify_bundle_signature(
    bundle: Any,
    expected_signer: Optional[str] = None,
    resolve_key: Optional[KeyResolver] = None,
) -> Optional[ResultSignature]:
    """Check an evidence bundle's signature (docs/evidence.md#evidence-bundles in the svc
    repository): its ``signature`` member ``{"protected", "signature"}``, a detached JWS of typ
    ``svc-bundle+jws`` over the RFC 8785 form of the bundle without that member — the same check
    and reasons as :func:`verify_result_signature`. None when the bundle carries no signature (a
    daemon without a signing key). Never raises for a bad signature."""
    if not isinstance(bundle, dict):
        return _failure("MALFORMED", "The bundle is not a JSON object.", None)
    signature = bundle.get("signature")
    if signature is None:
        return None
    if not isinstance(signature, dict) or not isinstance(signature.get("protected"), str) or not isinstance(signature.get("signature"), str):
        return _failure("MALFORMED", 'The bundle\'s signature needs string members "protected" and "signature".', None)
    if "." in signature["protected"] or "." in signature["signature"]:
        return _failure("MALFORMED", "The bundle's signature members are not unpadded base64url.", None)
    unsigned = {name: value for name, value in bundle.items() if name != "signature"}
    compact = signature["protected"] + ".." + signature["signature"]
    return _verify_detached(unsigned, compact, BUNDLE_SIGNATURE_TYP, "bundle", expected_signer, resolve_key)


def _verify_detached(
    body: Any,
    header: Optional[str],
    typ: str,
    what: str,
    expected_signer: Optional[str],
    resolve_key: Optional[KeyResolver],
) -> ResultSignature:
    """The check of a compact detached JWS of ``typ`` over ``body``'s RFC 8785 form; ``what`` names
    the value in the EDITED detail."""
    read = _read(header)
    if isinstance(read, str):
        return _failure("MALFORMED", _capital(read) + ".", None)
    alg, kid, head = read.alg, read.kid, read.head
    if alg not in ("EdDSA", "ES256"):
        return _failure("UNSUPPORTED_ALG", f"The signature uses alg {_js(alg, 20)}; svc signs with EdDSA or ES256.", read)
    if head.get("typ") != typ:
        return _failure("MALFORMED", f"The signature is of typ {_js(head.get('typ'), 40)}, not {typ}.", read)
    if head.get("svc-canon") != "RFC8785":
        canon = head.get("svc-canon")
        return _failure(
            "OTHER_CANONICAL_FORM",
            f"The signature names the serialisation {_js('none' if canon is None else canon, 20)}, not RFC8785: it was made over another form of the value.",
            read,
        )
    digest = head.get("svc-sha256")
    if not isinstance(digest, str) or not re.fullmatch(r"[0-9a-f]{64}", digest):
        return _failure("MALFORMED", 'The protected header has no "svc-sha256" digest.', read)
    try:
        payload = canonical_json(body)
    except ValueError as error:
        return _failure("MALFORMED", f"The value has no RFC 8785 form ({error}), so it cannot be what was signed.", read)
    if hashlib.sha256(payload.encode("utf-8")).hexdigest() != digest:
        try:
            plain: Optional[str] = _json(body, False)
        except ValueError:
            plain = None
        if plain is not None and hashlib.sha256(plain.encode("utf-8")).hexdigest() == digest:
            return _failure(
                "OTHER_CANONICAL_FORM",
                "The signature was made over the value as JSON.stringify writes it, not its RFC 8785 form: the signer did not canonicalise.",
                read,
            )
        return _failure("EDITED", f"The {what} was changed after it was signed: its RFC 8785 digest is not the one signed.", read)
    if expected_signer is not None and expected_signer not in (read.did, kid):
        return _failure("WRONG_KEY", f"Signed by {kid}, not by {expected_signer}.", read)
    try:
        jwk = (resolve_key or default_key_resolver())(kid)
    except Exception as error:  # noqa: BLE001 — any failure to find the key is UNKNOWN_KEY, with its reason
        why = str(error).split("\n")[0].rstrip(".") or type(error).__name__
        return _failure("UNKNOWN_KEY", f"The signing key {kid} cannot be found: {why}.", read)
    if jwk is None:
        return _failure("UNKNOWN_KEY", f"The signing key {kid} is not a key its DID publishes.", read)
    wanted = ("OKP", "Ed25519") if alg == "EdDSA" else ("EC", "P-256")
    if (jwk.get("kty"), jwk.get("crv")) != wanted:
        described = f"{jwk.get('kty')} {jwk.get('crv') or ''}".rstrip()
        return _failure("WRONG_KEY", f"The key {kid} is {described}, which cannot verify {alg}: signed by another key than {kid}.", read)
    message = (read.protected + "." + _b64url_encode(payload.encode("utf-8"))).encode("ascii")
    x = _b64url_decode(str(jwk.get("x", "")))
    if alg == "EdDSA":
        if x is None or len(x) != 32 or _ed_decompress(x) is None:
            return _failure("UNKNOWN_KEY", f"The key published as {kid} is not a valid {wanted[1]} public key.", read)
        ok = ed25519_verify(x, message, read.signature)
    else:
        y = _b64url_decode(str(jwk.get("y", "")))
        if x is None or y is None or len(x) != 32 or len(y) != 32 or not _p256_on_curve(int.from_bytes(x, "big"), int.from_bytes(y, "big")):
            return _failure("UNKNOWN_KEY", f"The key published as {kid} is not a valid {wanted[1]} public key.", read)
        ok = p256_verify(int.from_bytes(x, "big"), int.from_bytes(y, "big"), message, read.signature)
    if not ok:
        return _failure("WRONG_KEY", f"The signature does not verify with the key of {kid}: signed by another key than {kid}.", read)
    signed_at = _iso(read.iat)
    return {"verified": True, "reason": "VALID", "detail": f"Signed by {kid} at {signed_at}.", "signer": {"did": read.did, "kid": kid}, "signedAt": signed_at}


