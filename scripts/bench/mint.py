#!/usr/bin/env python3
"""Mints benchmark inputs, one per line.

  mint.py notifications APPSTORE_DIR COUNT USERS   App Store notifications (bodies), each a distinct purchase signed by
                                                  the test leaf key with the test chain; appAccountToken of userN is
                                                  md5('userN') as a UUID (the bench seeds users so).
  mint.py tokens SECRET FIRST LAST                HS256 user tokens (sub userFIRST..userLAST), valid for a day.
"""
import base64, hashlib, hmac, json, sys, time, uuid
from pathlib import Path


def b64(data: bytes) -> str:
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode()


def tokens(secret: str, first: int, last: int) -> None:
    header = b64(json.dumps({"alg": "HS256", "typ": "JWT"}).encode())
    expires = int(time.time()) + 86400
    for n in range(first, last + 1):
        payload = b64(json.dumps({"sub": f"user{n}", "exp": expires}).encode())
        mac = hmac.new(secret.encode(), f"{header}.{payload}".encode(), hashlib.sha256).digest()
        print(f"{header}.{payload}.{b64(mac)}")


def notifications(directory: str, count: int, users: int) -> None:
    from cryptography.hazmat.primitives import hashes, serialization
    from cryptography.hazmat.primitives.asymmetric import ec
    from cryptography.hazmat.primitives.asymmetric.utils import decode_dss_signature

    certs = Path(directory) / "certs"
    key = serialization.load_pem_private_key((certs / "testLeaf.key").read_bytes(), password=None)

    def der_base64(name: str) -> str:
        lines = (certs / name).read_text().splitlines()
        start = lines.index("-----BEGIN CERTIFICATE-----")
        return "".join(lines[start + 1 : lines.index("-----END CERTIFICATE-----")])

    header = b64(json.dumps({"alg": "ES256", "x5c": [der_base64(n) for n in ("testLeaf.pem", "testIntermediate.pem", "testCA.pem")]}).encode())

    def sign(payload: dict) -> str:
        body = f"{header}.{b64(json.dumps(payload).encode())}"
        r, s = decode_dss_signature(key.sign(body.encode(), ec.ECDSA(hashes.SHA256())))
        return f"{body}.{b64(r.to_bytes(32, 'big') + s.to_bytes(32, 'big'))}"

    now = int(time.time() * 1000)
    for n in range(count):
        user = f"user{n % users + 1}"
        transaction = {"transactionId": f"bench-{n}", "originalTransactionId": f"bench-{n}", "bundleId": "com.example",
                       "productId": "com.example.premium", "purchaseDate": now, "expiresDate": now + 30 * 86400 * 1000,
                       "appAccountToken": str(uuid.UUID(hashlib.md5(user.encode()).hexdigest())), "environment": "Sandbox",
                       "type": "Auto-Renewable Subscription", "signedDate": now}
        notification = {"notificationType": "SUBSCRIBED", "subtype": "INITIAL_BUY", "notificationUUID": str(uuid.uuid4()),
                        "data": {"appAppleId": 1234, "bundleId": "com.example", "environment": "Sandbox",
                                 "signedTransactionInfo": sign(transaction)},
                        "version": "2.0", "signedDate": now}
        print(json.dumps({"signedPayload": sign(notification)}))


if __name__ == "__main__":
    if sys.argv[1] == "tokens":
        tokens(sys.argv[2], int(sys.argv[3]), int(sys.argv[4]))
    else:
        notifications(sys.argv[2], int(sys.argv[3]), int(sys.argv[4]))
