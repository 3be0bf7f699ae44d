"""
A TEST-ONLY stand-in for the `standardwebhooks` package from PyPI, which this machine cannot
install (it reaches npm but not PyPI). Written from the Standard Webhooks specification, not
from the library: the signature is HMAC-SHA256, keyed with the base64 part of a `whsec_`
secret, over "<webhook-id>.<webhook-timestamp>.<body>", sent as "v1,<base64 digest>".
Only what the generated tests call is here: Webhook(secret).sign(msg_id, timestamp, data).
The suite puts this folder on PYTHONPATH when it runs a generated pytest module; users install
the real library (pip install standardwebhooks).
"""
import base64
import hashlib
import hmac
from datetime import datetime

__all__ = ["Webhook"]


class Webhook:
    def __init__(self, secret):
        if isinstance(secret, str):
            text = secret[len("whsec_"):] if secret.startswith("whsec_") else secret
            self._key = base64.b64decode(text)
        else:
            self._key = bytes(secret)

    def sign(self, msg_id: str, timestamp: datetime, data: str) -> str:
        seconds = int(timestamp.timestamp())
        signed = f"{msg_id}.{seconds}.{data}".encode("utf-8")
        digest = hmac.new(self._key, signed, hashlib.sha256).digest()
        return "v1," + base64.b64encode(digest).decode("ascii")
