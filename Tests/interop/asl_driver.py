#!/usr/bin/env python3
"""Drive every public method of Apple's app-store-server-library against `iapctl serve`.

Usage (see docs/server-api.md, "The interop driver"):

    asl_driver.py --base-url http://127.0.0.1:PORT --iapctl .build/debug/iapctl --store DIR \
        --root Fixtures/signing/root.pem [--bundle-id com.x.demo] [--key AuthKey.p8] \
        [--webhook-port N --webhook-attempts 2] [--app-apple-id N] [--timeout 20]

It first makes state through the CLI (`iapctl buy`, `finish`, `clock advance`, `refund`,
`auto-renew off`), then calls each method of the pinned `AppStoreServerAPIClient` (all 30) and a
few of `AsyncAppStoreServerAPIClient`, each call isolated and bounded by --timeout. For every
call it prints one JSON line:

    {"method": ..., "case": ..., "ok": bool, "status": HTTP status or null,
     "apiError": errorCode or null, "apiErrorName": APIError name or null, "message": ...,
     "model": class of the answer, "request": "GET /inApps/...", "checks": [{check, ok, detail}]}

and last a summary line `{"summary": {...}}`. It exits 0 when every line is ok, 1 otherwise, 2 on
bad arguments, 3 when the library is not installed.

How it reaches the local server: the client is built with `Environment.SANDBOX` (what a backend
testing sandbox purchases configures) and a subclass overrides `_get_full_url`, the one method
both clients use to join the base URL and the path, so that every request goes to --base-url and
nothing else about the request changes (method, path, query encoding, JSON body, headers and the
bearer token are the library's own). `_execute_request` is wrapped only to observe the response
(its HTTP status and request line are printed); it still calls the library's own.
`_generate_token` is left alone unless --diagnostic-add-iat asks for an `iat` claim. Not
`Environment.LOCAL_TESTING`: that environment's base URL is a placeholder, and the
`SignedDataVerifier` skips signature checks in it, so it would test nothing.

Signed payloads are checked with the library's `SignedDataVerifier` (the store's root, online
checks off, the store's environment and bundle id), and the decoded values are compared with what
`iapctl dump`, `show`, `subscriptions`, `clock` and `notifications` print for the same ids.
"""

import argparse
import asyncio
import decimal
import http.server
import inspect
import json
import os
import struct
import subprocess
import sys
import threading
import time
import traceback
import types
import uuid
import warnings
import zlib

try:
    import jwt
    from cryptography import x509
    from cryptography.hazmat.primitives import serialization
    from cryptography.hazmat.primitives.asymmetric import ec
    from appstoreserverlibrary.api_client import (
        APIError,
        APIException,
        AppStoreServerAPIClient,
        AsyncAppStoreServerAPIClient,
        GetTransactionHistoryVersion,
    )
    from appstoreserverlibrary.signed_data_verifier import SignedDataVerifier, VerificationException
    from appstoreserverlibrary.models.AccountTenure import AccountTenure
    from appstoreserverlibrary.models.BulletPoint import BulletPoint
    from appstoreserverlibrary.models.ConsumptionRequest import ConsumptionRequest
    from appstoreserverlibrary.models.ConsumptionRequestV1 import ConsumptionRequestV1
    from appstoreserverlibrary.models.ConsumptionStatus import ConsumptionStatus
    from appstoreserverlibrary.models.DefaultConfigurationRequest import DefaultConfigurationRequest
    from appstoreserverlibrary.models.DeliveryStatus import DeliveryStatus
    from appstoreserverlibrary.models.DeliveryStatusV1 import DeliveryStatusV1
    from appstoreserverlibrary.models.Environment import Environment
    from appstoreserverlibrary.models.ExtendReasonCode import ExtendReasonCode
    from appstoreserverlibrary.models.ExtendRenewalDateRequest import ExtendRenewalDateRequest
    from appstoreserverlibrary.models.HeaderPosition import HeaderPosition
    from appstoreserverlibrary.models.ImageSize import ImageSize
    from appstoreserverlibrary.models.ImageState import ImageState
    from appstoreserverlibrary.models.InAppOwnershipType import InAppOwnershipType
    from appstoreserverlibrary.models.LifetimeDollarsPurchased import LifetimeDollarsPurchased
    from appstoreserverlibrary.models.LifetimeDollarsRefunded import LifetimeDollarsRefunded
    from appstoreserverlibrary.models.MassExtendRenewalDateRequest import MassExtendRenewalDateRequest
    from appstoreserverlibrary.models.MessageState import MessageState
    from appstoreserverlibrary.models.NotificationHistoryRequest import NotificationHistoryRequest
    from appstoreserverlibrary.models.NotificationTypeV2 import NotificationTypeV2
    from appstoreserverlibrary.models.OrderLookupStatus import OrderLookupStatus
    from appstoreserverlibrary.models.PerformanceTestRequest import PerformanceTestRequest
    from appstoreserverlibrary.models.PerformanceTestStatus import PerformanceTestStatus
    from appstoreserverlibrary.models.Platform import Platform
    from appstoreserverlibrary.models.PlayTime import PlayTime
    from appstoreserverlibrary.models.RealtimeUrlRequest import RealtimeUrlRequest
    from appstoreserverlibrary.models.RefundPreference import RefundPreference
    from appstoreserverlibrary.models.RefundPreferenceV1 import RefundPreferenceV1
    from appstoreserverlibrary.models.SendAttemptResult import SendAttemptResult
    from appstoreserverlibrary.models.Status import Status
    from appstoreserverlibrary.models.Subtype import Subtype
    from appstoreserverlibrary.models.TransactionHistoryRequest import Order, ProductType, TransactionHistoryRequest
    from appstoreserverlibrary.models.UpdateAppAccountTokenRequest import UpdateAppAccountTokenRequest
    from appstoreserverlibrary.models.UploadMessageImage import UploadMessageImage
    from appstoreserverlibrary.models.UploadMessageRequestBody import UploadMessageRequestBody
    from appstoreserverlibrary.models.UserStatus import UserStatus
except ImportError as error:  # a missing library is a failure, never a skip
    print(json.dumps({"method": "import", "ok": False, "status": None, "apiError": None, "model": None,
                      "checks": [{"check": "app-store-server-library[async] is importable", "ok": False,
                                  "detail": "%s (pip install -r requirements-test.txt)" % error}]}), flush=True)
    sys.exit(3)

# ---------------------------------------------------------------------------------------------
# Fixed scenario values

USER = "0f6d4c52-3a1e-4b8e-9c47-2d5a8e1f6b30"  # a UUID user: it becomes the appAccountToken
NEW_TOKEN = "7389a31a-fb6d-4569-a2a6-db7d85d84813"
UNKNOWN_ID = "2999999999999999"  # well-formed, never issued by the scenario
EXTRA_COINS = 15  # enough purchases and notifications for a second page (20 per page)
DAY_MS = 86_400_000
PRODUCT_TYPE = {"consumable": "Consumable", "nonConsumable": "Non-Consumable",
                "autoRenewable": "Auto-Renewable Subscription", "nonRenewing": "Non-Renewing Subscription"}
HISTORY_TYPE = {"consumable": ProductType.CONSUMABLE, "nonConsumable": ProductType.NON_CONSUMABLE,
                "autoRenewable": ProductType.AUTO_RENEWABLE, "nonRenewing": ProductType.NON_RENEWABLE}
REFUSED_TYPE = "DID_CHANGE_RENEWAL_STATUS"  # the webhook receiver answers 500 to these


def emit(record):
    print(json.dumps(record, sort_keys=False, default=str), flush=True)


# ---------------------------------------------------------------------------------------------
# Checks and isolated calls


class Checks:
    """The checks of one call; each names what it compares and shows both sides on failure."""

    def __init__(self):
        self.items = []

    def check(self, name, ok, detail=None):
        self.items.append({"check": name, "ok": bool(ok), "detail": None if ok else detail})
        return bool(ok)

    def eq(self, name, actual, expected):
        return self.check(name, actual == expected, "got %r, expected %r" % (actual, expected))

    def ok(self):
        return all(item["ok"] for item in self.items)


_observed = threading.local()


def _remember(response, request_line):
    _observed.status = response.status_code
    _observed.request = request_line
    _observed.body = response.text[:300] if hasattr(response, "text") else None


def _token_with_iat(client):
    """--diagnostic-add-iat only: the library's token plus an `iat` claim, which Apple's libraries
    do not send; for seeing past the 401 of a server that wrongly requires `iat`."""
    claims = jwt.decode(BaseToken.generate(client), options={"verify_signature": False})
    claims["iat"] = int(time.time())
    return jwt.encode(claims, client._signing_key, algorithm="ES256", headers={"kid": client._key_id})


class BaseToken:
    generate = AppStoreServerAPIClient._generate_token
    add_iat = False


class LocalClient(AppStoreServerAPIClient):
    """Apple's synchronous client, sending to --base-url instead of Apple's host."""

    def __init__(self, base_url, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self._local_base_url = base_url.rstrip("/")

    def _generate_token(self):
        return _token_with_iat(self) if BaseToken.add_iat else super()._generate_token()

    def _get_full_url(self, path):
        return self._local_base_url + path

    def _execute_request(self, method, url, params, headers, json, data):
        response = super()._execute_request(method, url, params, headers, json, data)
        _remember(response, "%s %s" % (response.request.method, response.request.path_url))
        return response


class LocalAsyncClient(AsyncAppStoreServerAPIClient):
    """Apple's asynchronous (httpx) client, sending to --base-url."""

    def __init__(self, base_url, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self._local_base_url = base_url.rstrip("/")

    def _get_full_url(self, path):
        return self._local_base_url + path

    def _generate_token(self):
        return _token_with_iat(self) if BaseToken.add_iat else super()._generate_token()

    async def _execute_request(self, method, url, params, headers, json, data):
        response = await super()._execute_request(method, url, params, headers, json, data)
        raw = response.request.url.raw_path.decode("ascii", "replace")
        _remember(response, "%s %s" % (response.request.method, raw))
        return response


class Driver:
    def __init__(self, args):
        self.args = args
        self.records = []
        self.exercised = set()
        self.timeout = args.timeout

    def call(self, method, case, invoke, verify=None, expect=None, model=None):
        """Runs `invoke()` (the library call) and then `verify(checks, answer)` in a thread of their
        own, bounded together by --timeout. `expect` is (http_status, APIError) for a call that
        must fail with the library's APIException; `model` the class the answer must parse into
        ("[HistoryResponse]" for a list of pages)."""
        self.exercised.add(method)
        checks = Checks()
        record = {"method": method, "case": case, "ok": False, "status": None, "apiError": None, "apiErrorName": None,
                  "message": None, "model": None, "request": None, "checks": None}

        def observed():
            record["status"] = getattr(_observed, "status", None)
            record["request"] = getattr(_observed, "request", None)
            checks.status = record["status"]

        def work():
            _observed.status = _observed.request = _observed.body = None
            try:
                with warnings.catch_warnings():
                    warnings.simplefilter("ignore", DeprecationWarning)
                    answer = invoke()
            except APIException as error:
                observed()
                record["status"] = error.http_status_code
                record["apiError"] = error.raw_api_error
                record["apiErrorName"] = error.api_error.name if error.api_error is not None else None
                record["message"] = error.error_message
                record["model"] = "APIException"
                if expect is None:
                    checks.check("answered without an error", False, "HTTP %s, errorCode %s: %s%s" % (
                        error.http_status_code, error.raw_api_error, error.error_message,
                        "" if error.raw_api_error is not None else " (body %r)" % getattr(_observed, "body", None)))
                else:
                    checks.eq("HTTP status", error.http_status_code, expect[0])
                    checks.eq("errorCode (%s)" % expect[1].name, error.raw_api_error, int(expect[1]))
                return
            except BaseException as error:  # every failure is reported, none escapes
                observed()
                record["message"] = "%s: %s" % (type(error).__name__, error)
                lines = traceback.format_exc(limit=4).strip().splitlines()
                checks.check("the library answered", False, " | ".join(lines[-3:]))
                return
            observed()
            record["model"] = model_name(answer)
            if expect is not None:
                checks.check("fails with HTTP %s %s" % (expect[0], expect[1].name), False,
                             "the call succeeded (HTTP %s, model %s)" % (record["status"], record["model"]))
                return
            status = record["status"]
            checks.check("HTTP 2xx", status is None or 200 <= status < 300, "HTTP %s" % status)
            if model is not None and not checks.eq("parses into the library's model", record["model"], model):
                return
            if verify is not None:
                try:
                    with warnings.catch_warnings():
                        warnings.simplefilter("ignore", DeprecationWarning)
                        verify(checks, answer)
                except APIException as failure:
                    checks.check("follow-up calls answered", False, "HTTP %s, errorCode %s: %s" % (
                        failure.http_status_code, failure.raw_api_error, failure.error_message))
                except Exception as failure:
                    checks.check("checks ran", False, "%s: %s" % (type(failure).__name__, failure))

        worker = threading.Thread(target=work, daemon=True)
        began = time.monotonic()
        worker.start()
        worker.join(self.timeout)
        record["ms"] = round((time.monotonic() - began) * 1000, 1)
        items = list(checks.items)
        if worker.is_alive():
            items.append({"check": "answered within %gs" % self.timeout, "ok": False,
                          "detail": "no answer in time (the call is left running)"})
        record["checks"] = items
        record["ok"] = bool(items) and all(item["ok"] for item in items)
        self.records.append(record)
        emit(record)


def model_name(answer):
    if answer is None:
        return None
    if isinstance(answer, list):
        return "[%s]" % ", ".join(sorted({type(item).__name__ for item in answer}))
    return type(answer).__name__


# ---------------------------------------------------------------------------------------------
# The CLI: state in, expectations out


class CLI:
    def __init__(self, binary, store, timeout):
        self.binary = binary
        self.store = store
        self.timeout = timeout

    def run(self, *arguments):
        try:
            done = subprocess.run([self.binary, "--store", self.store] + list(arguments), capture_output=True,
                                  text=True, timeout=self.timeout)
            return done.returncode, done.stdout, done.stderr
        except Exception as error:
            return -1, "", "%s: %s" % (type(error).__name__, error)

    def json(self, *arguments):
        code, out, err = self.run(*(list(arguments) + ["--json"]))
        if code != 0:
            raise RuntimeError("iapctl %s exited %d: %s" % (" ".join(arguments), code, err.strip()))
        return json.loads(out)

    def lines(self, *arguments):
        code, out, err = self.run(*(list(arguments) + ["--json"]))
        if code != 0:
            raise RuntimeError("iapctl %s exited %d: %s" % (" ".join(arguments), code, err.strip()))
        return [json.loads(line) for line in out.splitlines() if line.strip()]

    def dump(self):
        code, out, err = self.run("dump")
        if code != 0:
            raise RuntimeError("iapctl dump exited %d: %s" % (code, err.strip()))
        return {t["transactionIdentifier"]: t for t in json.loads(out)}

    def clock_ms(self):
        clock = self.json("clock")
        for key in ("clockTimestamp", "timestamp", "nowTimestamp"):
            if key in clock:
                return clock[key]
        raise RuntimeError("iapctl clock --json has no timestamp: %r" % clock)


# ---------------------------------------------------------------------------------------------
# A loopback receiver: the webhook (App Store Server Notifications) and the Get Retention
# Message endpoint the performance test calls


class Receiver:
    def __init__(self, port, verifier, message_id):
        self.notifications = []  # (signedPayload, notificationType, answered status)
        self.realtime = []  # decoded realtime requests or error strings
        self.lock = threading.Condition()
        self.verifier = verifier
        self.message_id = message_id
        receiver = self

        class Handler(http.server.BaseHTTPRequestHandler):
            protocol_version = "HTTP/1.1"

            def log_message(self, *args):
                pass

            def do_POST(self):
                length = int(self.headers.get("Content-Length") or 0)
                body = self.rfile.read(length)
                status, answer = 404, b""
                try:
                    payload = json.loads(body)["signedPayload"]
                except Exception:
                    payload = None
                if self.path.startswith("/notifications"):
                    kind = None
                    try:
                        kind = jwt.decode(payload, options={"verify_signature": False}).get("notificationType")
                    except Exception:
                        pass
                    status = 500 if kind == REFUSED_TYPE else 200
                    with receiver.lock:
                        receiver.notifications.append((payload, kind, status))
                        receiver.lock.notify_all()
                elif self.path.startswith("/retention"):
                    try:
                        decoded = receiver.verifier.verify_and_decode_realtime_request(payload)
                        entry = decoded
                        status = 200
                        answer = json.dumps({"message": {"messageIdentifier": receiver.message_id}}).encode()
                    except Exception as error:
                        entry = "%s: %s" % (type(error).__name__, error)
                        status = 400
                    with receiver.lock:
                        receiver.realtime.append(entry)
                        receiver.lock.notify_all()
                self.send_response(status)
                self.send_header("Content-Type", "application/json")
                self.send_header("Content-Length", str(len(answer)))
                self.end_headers()
                self.wfile.write(answer)

        self.server = http.server.ThreadingHTTPServer(("127.0.0.1", port), Handler)
        self.server.daemon_threads = True
        self.port = self.server.server_address[1]
        threading.Thread(target=self.server.serve_forever, daemon=True).start()

    def wait(self, predicate, timeout):
        """Waits (bounded) until predicate() holds over the receiver's records."""
        deadline = time.monotonic() + timeout
        with self.lock:
            while not predicate():
                left = deadline - time.monotonic()
                if left <= 0:
                    return False
                self.lock.wait(left)
            return True


# ---------------------------------------------------------------------------------------------
# PNG images for Retention Messaging (no transparency: colour type 2, RGB)


def png(width, height, alpha=False):
    def chunk(kind, data):
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data) & 0xFFFFFFFF)

    pixel = b"\x20\x60\xc0\xff" if alpha else b"\x20\x60\xc0"
    row = b"\x00" + pixel * width
    raw = zlib.compress(row * height, 9)
    header = struct.pack(">IIBBBBB", width, height, 8, 6 if alpha else 2, 0, 0, 0)
    return b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", header) + chunk(b"IDAT", raw) + chunk(b"IEND", b"")


# ---------------------------------------------------------------------------------------------


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--base-url", required=True,
                        help="iapctl serve's address, http://127.0.0.1:PORT; or 'stdin': print the receiver's port first, "
                             "as {\"receiver\": {\"port\": N}}, then read the address from standard input (for a "
                             "caller that starts 'serve --webhook' on that port)")
    parser.add_argument("--iapctl", required=True, help="the iapctl binary")
    parser.add_argument("--store", required=True, help="the store iapctl serve serves")
    parser.add_argument("--root", required=True, help="the store's root certificate (PEM or DER)")
    parser.add_argument("--bundle-id", default="com.x.demo", help="the store's bundle id ('iapctl init --bundle-id')")
    parser.add_argument("--app-version", default="1.0", help="the store's app version ('iapctl init --app-version')")
    parser.add_argument("--environment", default="Sandbox", help="the store's environment setting")
    parser.add_argument("--key", help="the App Store Connect key (.p8) to sign bearer tokens; default: a new P-256 key")
    parser.add_argument("--key-id", default="ABC123DEFG")
    parser.add_argument("--issuer-id", default="57246542-96fe-1a63-e053-0824d011072a")
    parser.add_argument("--app-apple-id", type=int, help="the number given to 'iapctl serve --app-apple-id'")
    parser.add_argument("--webhook-port", type=int,
                        help="listen here for 'iapctl serve --webhook http://127.0.0.1:PORT/notifications'")
    parser.add_argument("--webhook-attempts", type=int, default=5, help="the value of 'serve --webhook-attempts'")
    parser.add_argument("--timeout", type=float, default=20, help="seconds per call")
    parser.add_argument("--skip-setup", action="store_true", help="the store already holds this scenario")
    parser.add_argument("--diagnostic-add-iat", action="store_true",
                        help="add an iat claim to the bearer token (Apple's libraries send none): only to look past a 401")
    args = parser.parse_args()
    # Loopback only: no proxy from the environment may take these requests elsewhere.
    os.environ["NO_PROXY"] = os.environ["no_proxy"] = "127.0.0.1,localhost,::1"

    BaseToken.add_iat = args.diagnostic_add_iat
    driver = Driver(args)
    cli = CLI(args.iapctl, args.store, max(args.timeout, 30))
    env = Environment(args.environment)
    try:
        run(driver, cli, env)
    except Exception as error:  # a bug in the driver itself is a failed line, not a silent stop
        emit({"method": "driver", "case": "internal error", "ok": False, "status": None, "apiError": None,
              "model": None, "checks": [{"check": "the driver ran to the end", "ok": False,
                                        "detail": traceback.format_exc(limit=6)}]})
        driver.records.append({"ok": False, "method": "driver"})
    failed = [r for r in driver.records if not r["ok"]]
    summary = {"calls": len(driver.records), "ok": len(driver.records) - len(failed), "failed": len(failed),
               "failedMethods": sorted({r["method"] for r in failed})}
    emit({"summary": summary})
    print("asl_driver: %d of %d calls ok; failing methods: %s" % (
        summary["ok"], summary["calls"], ", ".join(summary["failedMethods"]) or "none"), file=sys.stderr, flush=True)
    sys.stdout.flush()
    os._exit(0 if not failed else 1)  # do not wait for a call still hanging in its thread


def run(driver, cli, env):
    args = driver.args
    # -- keys, verifier, clients ------------------------------------------------------------
    if args.key:
        signing_key = open(args.key, "rb").read()
    else:
        signing_key = ec.generate_private_key(ec.SECP256R1()).private_bytes(
            serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8, serialization.NoEncryption())
    root_bytes = open(args.root, "rb").read()
    root = x509.load_pem_x509_certificate(root_bytes) if b"-----BEGIN" in root_bytes else x509.load_der_x509_certificate(root_bytes)
    bundle_id = args.bundle_id
    verifier = SignedDataVerifier([root.public_bytes(serialization.Encoding.DER)], enable_online_checks=False,
                                  environment=env, bundle_id=bundle_id, app_apple_id=args.app_apple_id)

    def async_client():
        return LocalAsyncClient(args.base_url, signing_key, args.key_id, args.issuer_id, bundle_id, Environment.SANDBOX)

    message_id = str(uuid.UUID(int=0x5E7A11))
    receiver = Receiver(args.webhook_port or 0, verifier, message_id)
    webhook = args.webhook_port is not None
    if args.base_url == "stdin":
        emit({"receiver": {"port": receiver.port, "webhook": "http://127.0.0.1:%d/notifications" % receiver.port,
                           "realtime": "http://127.0.0.1:%d/retention" % receiver.port}})
        args.base_url = sys.stdin.readline().strip()
    client = LocalClient(args.base_url, signing_key, args.key_id, args.issuer_id, bundle_id, Environment.SANDBOX)

    # -- state through the CLI ----------------------------------------------------------------
    ids = {}
    setup = Checks()

    def step(*arguments):
        code, out, err = cli.run(*(list(arguments) + ["--json"]))
        setup.check("iapctl " + " ".join(arguments), code == 0, "exit %d: %s" % (code, err.strip()))
        try:
            return json.loads(out) if code == 0 and out.strip() else None
        except ValueError:
            return None

    def bought(name, *arguments):
        answer = step("buy", *arguments)
        if isinstance(answer, dict):
            ids[name] = answer.get("transactionIdentifier")

    if not args.skip_setup:
        bought("vip", "com.x.vip2", "--user", USER)
        bought("weekly", "com.x.weekly", "--user", USER)
        bought("coin", "com.x.coin42")
        bought("noads", "com.x.noads")
        bought("vip1", "com.x.vip1")
        bought("coin2", "com.x.coin210", "--quantity", "2")
        for index in range(EXTRA_COINS):
            bought("extra%d" % index, "com.x.coin42")
        finished = [ids.get(n) for n in ["vip", "coin", "vip1", "coin2"] + ["extra%d" % i for i in range(EXTRA_COINS)]]
        step("finish", *[t for t in finished if t])
        step("clock", "advance", "P8D")  # the weekly subscription renews
        if ids.get("coin"):
            step("refund", ids["coin"], "--reason", "1")
        step("auto-renew", "off", "com.x.weekly")
        step("clock", "advance", "P7D")  # ... and expires
    emit({"method": "setup", "case": "state through the CLI", "ok": setup.ok(), "status": None, "apiError": None,
          "model": None, "checks": setup.items})
    driver.records.append({"method": "setup", "ok": setup.ok()})

    dump = cli.dump()
    if args.skip_setup or not ids.get("vip"):
        by_product = {}
        for t in dump.values():
            by_product.setdefault(t["productIdentifier"], []).append(t["transactionIdentifier"])
        ids.setdefault("vip", (by_product.get("com.x.vip2") or [None])[0])
        ids.setdefault("weekly", (by_product.get("com.x.weekly") or [None])[0])
        ids.setdefault("coin", (by_product.get("com.x.coin42") or [None])[0])
        ids.setdefault("noads", (by_product.get("com.x.noads") or [None])[0])
        ids.setdefault("vip1", (by_product.get("com.x.vip1") or [None])[0])
        ids.setdefault("coin2", (by_product.get("com.x.coin210") or [None])[0])
    vip, weekly, coin, noads, coin2 = ids["vip"], ids["weekly"], ids["coin"], ids["noads"], ids["coin2"]
    weekly_renewal = max((t["transactionIdentifier"] for t in dump.values()
                          if t["originalTransactionIdentifier"] == weekly and t["transactionIdentifier"] != weekly),
                         default=None)
    tokens = {}  # original transaction id -> appAccountToken set through the API
    app_transaction_ids = set()

    # -- shared checks ------------------------------------------------------------------------
    def store_records(d):
        """The App Store's own records: what the history lists (docs/serve.md)."""
        return sorted((t for t in d.values() if t["state"] == "purchased"), key=lambda t: int(t["transactionIdentifier"]))

    def price_milli(text):
        return int(decimal.Decimal(text) * 1000)

    def check_transaction(c, label, decoded, d=None, clock=None):
        d = d if d is not None else cli.dump()
        t = d.get(decoded.transactionId)
        if not c.check("%s: transaction %s is in iapctl dump" % (label, decoded.transactionId), t is not None,
                       "dump has no %s" % decoded.transactionId):
            return
        c.eq("%s: originalTransactionId" % label, decoded.originalTransactionId, t["originalTransactionIdentifier"])
        c.eq("%s: productId" % label, decoded.productId, t["productIdentifier"])
        c.eq("%s: bundleId" % label, decoded.bundleId, bundle_id)
        c.eq("%s: environment" % label, decoded.environment, env)
        c.eq("%s: purchaseDate" % label, decoded.purchaseDate, t["transactionTimestamp"])
        c.eq("%s: originalPurchaseDate" % label, decoded.originalPurchaseDate, t["originalTransactionTimestamp"])
        c.eq("%s: quantity" % label, decoded.quantity, t["quantity"])
        c.eq("%s: type" % label, decoded.rawType, PRODUCT_TYPE.get(t["productType"]))
        c.eq("%s: storefront" % label, decoded.storefront, t["storefront"])
        c.eq("%s: currency" % label, decoded.currency, t["currency"])
        c.eq("%s: price (milliunits)" % label, decoded.price, price_milli(t["price"]))
        # Apple writes expiresDate for auto-renewable subscriptions only ("expires or renews").
        c.eq("%s: expiresDate" % label, decoded.expiresDate,
             t.get("expiresTimestamp") if t["productType"] == "autoRenewable" else None)
        c.eq("%s: webOrderLineItemId" % label, decoded.webOrderLineItemId, t.get("webOrderLineItemIdentifier"))
        c.eq("%s: subscriptionGroupIdentifier" % label, decoded.subscriptionGroupIdentifier,
             t.get("subscriptionGroupIdentifier"))
        c.eq("%s: revocationDate" % label, decoded.revocationDate, t.get("revocationTimestamp"))
        c.eq("%s: revocationReason" % label, decoded.rawRevocationReason, t.get("revocationReason"))
        c.eq("%s: transactionReason" % label, decoded.rawTransactionReason, (t.get("transactionReason") or "").upper())
        c.eq("%s: inAppOwnershipType" % label, decoded.rawInAppOwnershipType, "PURCHASED")
        expected_token = tokens.get(t["originalTransactionIdentifier"])
        if expected_token is None:
            user = t.get("userIdentifier")
            try:
                expected_token = str(uuid.UUID(user)) if user else None
            except ValueError:
                expected_token = None
        c.eq("%s: appAccountToken" % label, decoded.appAccountToken, expected_token)
        c.check("%s: appTransactionId is present" % label, bool(decoded.appTransactionId),
                "no appTransactionId (issue 13: every signed transaction carries the account's appTransactionId)")
        if decoded.appTransactionId:
            app_transaction_ids.add(decoded.appTransactionId)
            c.check("%s: appTransactionId is the account's one" % label, len(app_transaction_ids) == 1,
                    "several appTransactionIds seen: %s" % sorted(app_transaction_ids))
        if clock is not None:
            c.eq("%s: signedDate is the store's clock" % label, decoded.signedDate, clock)

    def verify_transaction(c, label, token, d=None, clock=None):
        try:
            decoded = verifier.verify_and_decode_signed_transaction(token)
        except VerificationException as error:
            c.check("%s: SignedDataVerifier accepts the transaction" % label, False, "VerificationException %s" % error.status.name)
            return None
        c.check("%s: SignedDataVerifier accepts the transaction" % label, True)
        check_transaction(c, label, decoded, d, clock)
        return decoded

    def decode_all(c, label, tokens_, d=None, clock=None):
        out = []
        for index, token in enumerate(tokens_ or []):
            decoded = verify_transaction(c, "%s[%d]" % (label, index), token, d, clock)
            if decoded is not None:
                out.append(decoded)
        return out

    def common_response(c, answer):
        c.eq("bundleId", answer.bundleId, bundle_id)
        c.eq("environment", answer.rawEnvironment, env.value)
        c.eq("appAppleId", answer.appAppleId, args.app_apple_id)

    # =========================================================================================
    # Get Transaction Info
    def transaction_info(c, answer):
        clock = cli.clock_ms()
        verify_transaction(c, "signedTransactionInfo", answer.signedTransactionInfo, clock=clock)
        code, out, _ = cli.run("jws", vip)
        c.eq("signedTransactionInfo equals 'iapctl jws %s'" % vip, answer.signedTransactionInfo, out.strip() if code == 0 else None)

    driver.call("get_transaction_info", "a subscription", lambda: client.get_transaction_info(vip), transaction_info,
                model="TransactionInfoResponse")
    for name in ("coin", "noads", "vip1", "weekly_renewal"):
        tid = ids.get(name) if name != "weekly_renewal" else weekly_renewal
        driver.call("get_transaction_info", name, (lambda t=tid: client.get_transaction_info(t)),
                    lambda c, a: verify_transaction(c, "signedTransactionInfo", a.signedTransactionInfo),
                    model="TransactionInfoResponse")
    driver.call("get_transaction_info", "unknown id", lambda: client.get_transaction_info(UNKNOWN_ID),
                expect=(404, APIError.TRANSACTION_ID_NOT_FOUND))
    driver.call("get_transaction_info", "invalid id", lambda: client.get_transaction_info("abc"),
                expect=(400, APIError.INVALID_TRANSACTION_ID))

    # =========================================================================================
    # Get Transaction History v1 and v2
    def all_pages(version, request, first_revision=None):
        pages, revision = [], first_revision
        for _ in range(50):
            page = client.get_transaction_history(vip, revision, request, version)
            pages.append(page)
            revision = page.revision
            if not page.hasMore:
                break
        return pages

    def history_case(case, request, expected_filter, version=GetTransactionHistoryVersion.V2, order=None):
        def verify(c, pages):
            d = cli.dump()
            clock = cli.clock_ms()
            records = store_records(d)
            if version == GetTransactionHistoryVersion.V1:
                records = [t for t in records if not (t["productType"] == "consumable" and t["finished"]
                                                      and t.get("revocationTimestamp") is None)]
            expected = [t["transactionIdentifier"] for t in records if expected_filter(t)]
            got = []
            for index, page in enumerate(pages):
                common_response(c, page)
                c.check("page %d: at most 20 transactions" % index, len(page.signedTransactions or []) <= 20,
                        "%d transactions" % len(page.signedTransactions or []))
                c.check("page %d: revision is a string" % index, isinstance(page.revision, str) and page.revision != "",
                        "revision %r" % page.revision)
                if index < len(pages) - 1:
                    c.eq("page %d: a full page before the last" % index, len(page.signedTransactions or []), 20)
                got += [t.transactionId for t in decode_all(c, "page %d" % index, page.signedTransactions, d, clock)]
            c.eq("the transactions (as a set)", sorted(got), sorted(expected))
            c.eq("no transaction twice", len(got), len(set(got)))
            if order == "ascending":
                c.eq("ascending order", got, sorted(got, key=lambda t: (d[t]["transactionTimestamp"], int(t))))
            if order == "descending":
                c.eq("descending order", got, sorted(got, key=lambda t: (d[t]["transactionTimestamp"], int(t)), reverse=True))
            if pages and pages[-1].revision:
                after = client.get_transaction_history(vip, pages[-1].revision, request, version)
                c.eq("the last revision gives nothing new", after.signedTransactions or [], [])
                c.eq("... and hasMore false", after.hasMore, False)

        driver.call("get_transaction_history", "%s %s" % (version.value, case), lambda: all_pages(version, request),
                    verify, model="[HistoryResponse]")

    V1, V2 = GetTransactionHistoryVersion.V1, GetTransactionHistoryVersion.V2
    everything = lambda t: True
    history_case("no filter (two pages)", TransactionHistoryRequest(), everything, V2, order="ascending")
    history_case("sort=DESCENDING", TransactionHistoryRequest(sort=Order.DESCENDING), everything, V2, order="descending")
    history_case("sort=ASCENDING", TransactionHistoryRequest(sort=Order.ASCENDING), everything, V2, order="ascending")
    history_case("productId=[com.x.coin42, com.x.vip2]",
                 TransactionHistoryRequest(productIds=["com.x.coin42", "com.x.vip2"]),
                 lambda t: t["productIdentifier"] in ("com.x.coin42", "com.x.vip2"))
    history_case("productType=[CONSUMABLE]", TransactionHistoryRequest(productTypes=[ProductType.CONSUMABLE]),
                 lambda t: t["productType"] == "consumable")
    history_case("productType=[AUTO_RENEWABLE, NON_RENEWABLE]",
                 TransactionHistoryRequest(productTypes=[ProductType.AUTO_RENEWABLE, ProductType.NON_RENEWABLE]),
                 lambda t: t["productType"] in ("autoRenewable", "nonRenewing"))
    history_case("productType=[NON_CONSUMABLE]", TransactionHistoryRequest(productTypes=[ProductType.NON_CONSUMABLE]),
                 lambda t: t["productType"] == "nonConsumable")
    history_case("subscriptionGroupIdentifier=[tips]", TransactionHistoryRequest(subscriptionGroupIdentifiers=["tips"]),
                 lambda t: t.get("subscriptionGroupIdentifier") == "tips")
    records = store_records(dump)
    if len(records) >= 6:
        start, end = records[2]["transactionTimestamp"], records[5]["transactionTimestamp"]
        history_case("startDate..endDate", TransactionHistoryRequest(startDate=start, endDate=end),
                     lambda t, s=start, e=end: s <= t["transactionTimestamp"] < e)
        history_case("startDate only", TransactionHistoryRequest(startDate=end),
                     lambda t, e=end: t["transactionTimestamp"] >= e)
    history_case("revoked=True (sent as 'True')", TransactionHistoryRequest(revoked=True),
                 lambda t: t.get("revocationTimestamp") is not None)
    history_case("revoked=False (sent as 'False')", TransactionHistoryRequest(revoked=False),
                 lambda t: t.get("revocationTimestamp") is None)
    history_case("inAppOwnershipType=PURCHASED", TransactionHistoryRequest(inAppOwnershipType=InAppOwnershipType.PURCHASED),
                 everything)
    history_case("inAppOwnershipType=FAMILY_SHARED",
                 TransactionHistoryRequest(inAppOwnershipType=InAppOwnershipType.FAMILY_SHARED), lambda t: False)
    history_case("every filter at once", TransactionHistoryRequest(
        productTypes=[ProductType.CONSUMABLE], productIds=["com.x.coin42"], revoked=False, sort=Order.ASCENDING,
        inAppOwnershipType=InAppOwnershipType.PURCHASED, startDate=records[0]["transactionTimestamp"] if records else 1,
        endDate=4102444800000),
        lambda t: t["productIdentifier"] == "com.x.coin42" and t.get("revocationTimestamp") is None)
    history_case("no filter", TransactionHistoryRequest(), everything, V1)
    history_case("productType=[CONSUMABLE] (finished consumables left out)",
                 TransactionHistoryRequest(productTypes=[ProductType.CONSUMABLE]),
                 lambda t: t["productType"] == "consumable", V1)
    driver.call("get_transaction_history", "v2 invalid id",
                lambda: client.get_transaction_history("abc", None, TransactionHistoryRequest(), V2),
                expect=(400, APIError.INVALID_TRANSACTION_ID))
    driver.call("get_transaction_history", "v2 unknown id",
                lambda: client.get_transaction_history(UNKNOWN_ID, None, TransactionHistoryRequest(), V2),
                expect=(404, APIError.TRANSACTION_ID_NOT_FOUND))
    driver.call("get_transaction_history", "v2 altered revision",
                lambda: client.get_transaction_history(vip, "not-a-revision", TransactionHistoryRequest(), V2),
                expect=(400, APIError.INVALID_REQUEST_REVISION))
    driver.call("get_transaction_history", "v2 endDate before startDate",
                lambda: client.get_transaction_history(vip, None, TransactionHistoryRequest(startDate=2000, endDate=1000), V2),
                expect=(400, APIError.START_DATE_AFTER_END_DATE))

    # =========================================================================================
    # Get All Subscription Statuses
    cli_status = {"active": 1, "expired": 2, "inBillingRetry": 3, "inGracePeriod": 4, "revoked": 5}

    def statuses_verify(expected_statuses):
        """`expected_statuses`: original transaction id -> Apple's status, as the scenario made them."""
        def verify(c, answer):
            common_response(c, answer)
            subs = {s["originalTransactionIdentifier"]: s for s in cli.json("subscriptions")}
            d = cli.dump()
            clock = cli.clock_ms()
            seen = {}
            groups = [g.subscriptionGroupIdentifier for g in answer.data or []]
            c.eq("groups sorted by identifier, each once", groups, sorted(set(groups)))
            for group in answer.data or []:
                for item in group.lastTransactions or []:
                    original = item.originalTransactionId
                    seen[original] = item.rawStatus
                    sub = subs.get(original)
                    if not c.check("%s: listed by 'iapctl subscriptions'" % original, sub is not None, "not listed"):
                        continue
                    c.eq("%s: status as 'iapctl subscriptions' has it (%s)" % (original, sub["status"]), item.rawStatus,
                         cli_status.get(sub["status"]))
                    c.eq("%s: group" % original, group.subscriptionGroupIdentifier, sub["subscriptionGroupIdentifier"])
                    decoded = verify_transaction(c, "%s signedTransactionInfo" % original, item.signedTransactionInfo, d, clock)
                    if decoded is not None:
                        c.eq("%s: the latest transaction" % original, decoded.transactionId, sub["latestTransactionIdentifier"])
                    try:
                        renewal = verifier.verify_and_decode_renewal_info(item.signedRenewalInfo)
                    except VerificationException as error:
                        c.check("%s: SignedDataVerifier accepts the renewal info" % original, False,
                                "VerificationException %s" % error.status.name)
                        continue
                    c.check("%s: SignedDataVerifier accepts the renewal info" % original, True)
                    label = "%s renewal" % original
                    c.eq(label + ": originalTransactionId", renewal.originalTransactionId, original)
                    c.eq(label + ": environment", renewal.environment, env)
                    c.eq(label + ": signedDate is the store's clock", renewal.signedDate, clock)
                    c.eq(label + ": productId", renewal.productId, sub["productIdentifier"])
                    c.eq(label + ": autoRenewProductId", renewal.autoRenewProductId, sub["autoRenewProductIdentifier"])
                    c.eq(label + ": autoRenewStatus", renewal.rawAutoRenewStatus, 1 if sub["autoRenewStatus"] else 0)
                    c.eq(label + ": renewalDate", renewal.renewalDate, sub["expiresTimestamp"])
                    c.eq(label + ": expirationIntent", renewal.rawExpirationIntent, sub.get("expirationIntent"))
                    c.eq(label + ": gracePeriodExpiresDate", renewal.gracePeriodExpiresDate, sub.get("gracePeriodExpiresTimestamp"))
                    c.check(label + ": appTransactionId is the account's one", bool(renewal.appTransactionId) and
                            (not app_transaction_ids or renewal.appTransactionId in app_transaction_ids),
                            "appTransactionId %r, transactions carry %s" % (renewal.appTransactionId, sorted(app_transaction_ids)))
            c.eq("the subscriptions and their statuses", seen, expected_statuses)
        return verify

    driver.call("get_all_subscription_statuses", "no filter", lambda: client.get_all_subscription_statuses(vip),
                statuses_verify({vip: 1, weekly: 2}), model="StatusResponse")
    driver.call("get_all_subscription_statuses", "status=[ACTIVE]",
                lambda: client.get_all_subscription_statuses(weekly, [Status.ACTIVE]), statuses_verify({vip: 1}),
                model="StatusResponse")
    driver.call("get_all_subscription_statuses", "status=[EXPIRED, BILLING_RETRY]",
                lambda: client.get_all_subscription_statuses(coin, [Status.EXPIRED, Status.BILLING_RETRY]),
                statuses_verify({weekly: 2}), model="StatusResponse")
    driver.call("get_all_subscription_statuses", "invalid id", lambda: client.get_all_subscription_statuses("abc"),
                expect=(400, APIError.INVALID_TRANSACTION_ID))
    driver.call("get_all_subscription_statuses", "unknown id", lambda: client.get_all_subscription_statuses(UNKNOWN_ID),
                expect=(404, APIError.TRANSACTION_ID_NOT_FOUND))

    # =========================================================================================
    # Get Refund History
    def refunds_verify(c, answer):
        d = cli.dump()
        refunded = sorted((t for t in store_records(d) if t.get("revocationTimestamp") is not None),
                          key=lambda t: (t["revocationTimestamp"], int(t["transactionIdentifier"])))
        got = [t.transactionId for t in decode_all(c, "signedTransactions", answer.signedTransactions, d)]
        c.eq("the refunded transactions, by revocationDate", got, [t["transactionIdentifier"] for t in refunded])
        c.eq("hasMore", answer.hasMore, False)
        c.check("revision is a string", isinstance(answer.revision, str) and answer.revision != "", "revision %r" % answer.revision)
        if answer.revision:
            again = client.get_refund_history(vip, answer.revision)
            c.eq("the last revision gives no refund again", again.signedTransactions or [], [])
            c.eq("... and hasMore false", again.hasMore, False)

    driver.call("get_refund_history", "any transaction id", lambda: client.get_refund_history(weekly, None), refunds_verify,
                model="RefundHistoryResponse")
    driver.call("get_refund_history", "invalid id", lambda: client.get_refund_history("abc", None),
                expect=(400, APIError.INVALID_TRANSACTION_ID))
    driver.call("get_refund_history", "altered revision", lambda: client.get_refund_history(vip, "not-a-revision"),
                expect=(400, APIError.INVALID_REQUEST_REVISION))

    # =========================================================================================
    # Look Up Order ID
    order_id = (dump.get(vip) or {}).get("orderIdentifier")

    def order_verify(c, answer):
        c.check("iapctl dump shows an orderIdentifier for %s" % vip, order_id is not None,
                "dump has no orderIdentifier (issue 13: every purchase gets an order id, shown by show and dump)")
        c.eq("status", answer.rawStatus, OrderLookupStatus.VALID.value)
        d = cli.dump()
        expected = sorted(t["transactionIdentifier"] for t in d.values() if order_id and t.get("orderIdentifier") == order_id)
        got = sorted(t.transactionId for t in decode_all(c, "signedTransactions", answer.signedTransactions, d))
        c.eq("the order's transactions", got, expected)
        c.check("the looked-up transaction is in it", vip in got, "%s not in %s" % (vip, got))

    driver.call("look_up_order_id", "the order of a purchase", lambda: client.look_up_order_id(order_id or "MISSING0000"),
                order_verify, model="OrderLookupResponse")
    driver.call("look_up_order_id", "unknown order id", lambda: client.look_up_order_id("ZZZZZZZZZZ"),
                lambda c, a: (c.eq("status (1 is invalid)", a.rawStatus, OrderLookupStatus.INVALID.value),
                              c.eq("no transactions", a.signedTransactions or [], [])),
                model="OrderLookupResponse")

    # =========================================================================================
    # Send Consumption Information v1 and v2
    v1_request = ConsumptionRequestV1(
        customerConsented=True, consumptionStatus=ConsumptionStatus.PARTIALLY_CONSUMED, platform=Platform.APPLE,
        sampleContentProvided=False, deliveryStatus=DeliveryStatusV1.DELIVERED_AND_WORKING_PROPERLY,
        appAccountToken=USER, accountTenure=AccountTenure.THIRTY_DAYS_TO_NINETY_DAYS, playTime=PlayTime.ONE_TO_SIX_HOURS,
        lifetimeDollarsRefunded=LifetimeDollarsRefunded.ZERO_DOLLARS,
        lifetimeDollarsPurchased=LifetimeDollarsPurchased.FIFTY_DOLLARS_TO_NINETY_NINE_DOLLARS_AND_NINETY_NINE_CENTS,
        userStatus=UserStatus.ACTIVE, refundPreference=RefundPreferenceV1.PREFER_DECLINE)
    v2_request = ConsumptionRequest(customerConsented=True, sampleContentProvided=True, deliveryStatus=DeliveryStatus.DELIVERED,
                                    consumptionPercentage=25000, refundPreference=RefundPreference.GRANT_PRORATED)

    def consumption_shown(version, request):
        sent = client._get_request_json(request)

        def verify(c, _):
            c.eq("HTTP 202 Accepted (as Apple answers)", c.status, 202)
            shown = cli.json("show", coin2)
            entries = shown.get("consumptionInformation") if isinstance(shown, dict) else None
            matching = [e for e in entries or [] if e.get("version") == version
                        and all(e.get(k) == v for k, v in sent.items())]
            c.check("'iapctl show %s --json' lists it under consumptionInformation" % coin2, bool(matching),
                    "consumptionInformation is %r; sent %r" % (entries, sent))
        return verify

    driver.call("send_consumption_data", "v1, every field", lambda: client.send_consumption_data(coin2, v1_request),
                consumption_shown("v1", v1_request))
    driver.call("send_consumption_data", "customerConsented false",
                lambda: client.send_consumption_data(coin2, ConsumptionRequestV1(customerConsented=False)),
                expect=(400, APIError.INVALID_CUSTOMER_CONSENTED))
    driver.call("send_consumption_data", "unknown id", lambda: client.send_consumption_data(UNKNOWN_ID, v1_request),
                expect=(404, APIError.TRANSACTION_ID_NOT_FOUND))
    driver.call("send_consumption_information", "v2, every field", lambda: client.send_consumption_information(coin2, v2_request),
                consumption_shown("v2", v2_request))
    driver.call("send_consumption_information", "customerConsented false",
                lambda: client.send_consumption_information(coin2, ConsumptionRequest(
                    customerConsented=False, sampleContentProvided=False, deliveryStatus=DeliveryStatus.DELIVERED)),
                expect=(400, APIError.INVALID_CUSTOMER_CONSENTED))
    driver.call("send_consumption_information", "invalid id",
                lambda: client.send_consumption_information("abc", v2_request), expect=(400, APIError.INVALID_TRANSACTION_ID))

    # =========================================================================================
    # Set App Account Token
    def token_verify(c, _):
        tokens[noads] = NEW_TOKEN
        info = client.get_transaction_info(noads)
        decoded = verify_transaction(c, "later signedTransactionInfo", info.signedTransactionInfo)
        if decoded is not None:
            c.eq("later signed data carries the new token", decoded.appAccountToken, NEW_TOKEN)

    driver.call("set_app_account_token", "a non-consumable",
                lambda: client.set_app_account_token(noads, UpdateAppAccountTokenRequest(appAccountToken=NEW_TOKEN)),
                token_verify)
    driver.call("set_app_account_token", "not a UUID",
                lambda: client.set_app_account_token(noads, UpdateAppAccountTokenRequest(appAccountToken="not-a-uuid")),
                expect=(400, APIError.INVALID_APP_ACCOUNT_TOKEN_UUID_ERROR))
    if weekly_renewal:
        driver.call("set_app_account_token", "a renewal's id (not original)",
                    lambda: client.set_app_account_token(weekly_renewal, UpdateAppAccountTokenRequest(appAccountToken=NEW_TOKEN)),
                    expect=(400, APIError.TRANSACTION_ID_IS_NOT_ORIGINAL_TRANSACTION_ID_ERROR))
    driver.call("set_app_account_token", "unknown id",
                lambda: client.set_app_account_token(UNKNOWN_ID, UpdateAppAccountTokenRequest(appAccountToken=NEW_TOKEN)),
                expect=(404, APIError.TRANSACTION_ID_NOT_FOUND))

    # =========================================================================================
    # Get App Transaction Info
    def app_transaction_verify(c, answer):
        try:
            decoded = verifier.verify_and_decode_app_transaction(answer.signedAppTransactionInfo)
        except VerificationException as error:
            c.check("SignedDataVerifier accepts the app transaction", False, "VerificationException %s" % error.status.name)
            return
        c.check("SignedDataVerifier accepts the app transaction", True)
        c.eq("bundleId", decoded.bundleId, bundle_id)
        c.eq("receiptType", decoded.receiptType, env)
        c.eq("appAppleId", decoded.appAppleId, args.app_apple_id)
        c.eq("applicationVersion is the store's app version", decoded.applicationVersion, args.app_version)
        c.check("originalApplicationVersion", bool(decoded.originalApplicationVersion), "missing")
        c.check("originalPurchaseDate", isinstance(decoded.originalPurchaseDate, int), "missing")
        c.eq("receiptCreationDate is the store's clock", decoded.receiptCreationDate, cli.clock_ms())
        c.check("appTransactionId is the transactions' one", bool(decoded.appTransactionId) and
                (not app_transaction_ids or decoded.appTransactionId in app_transaction_ids),
                "appTransactionId %r, transactions carry %s" % (decoded.appTransactionId, sorted(app_transaction_ids)))
        c.check("originalPlatform", decoded.originalPlatform is not None, "rawOriginalPlatform %r" % decoded.rawOriginalPlatform)
        code, out, _ = cli.run("jws", "app-transaction",
                               *(["--app-apple-id", str(args.app_apple_id)] if args.app_apple_id else []))
        c.eq("equals 'iapctl jws app-transaction'", answer.signedAppTransactionInfo, out.strip() if code == 0 else None)

    driver.call("get_app_transaction_info", "from a subscription's id", lambda: client.get_app_transaction_info(vip),
                app_transaction_verify, model="AppTransactionInfoResponse")
    driver.call("get_app_transaction_info", "from a consumable's id", lambda: client.get_app_transaction_info(coin),
                app_transaction_verify, model="AppTransactionInfoResponse")
    driver.call("get_app_transaction_info", "invalid id", lambda: client.get_app_transaction_info("abc"),
                expect=(400, APIError.INVALID_TRANSACTION_ID))
    driver.call("get_app_transaction_info", "unknown id", lambda: client.get_app_transaction_info(UNKNOWN_ID),
                expect=(404, APIError.TRANSACTION_ID_NOT_FOUND))

    # =========================================================================================
    # Finish Transaction
    def finished_verify(c, _):
        shown = cli.json("show", noads)
        c.eq("'iapctl show %s' reports it finished" % noads, shown.get("finished") if isinstance(shown, dict) else None, True)
        code, out, _ = cli.run("queue", "--json")
        queued = [t.get("transactionIdentifier") for t in json.loads(out)] if code == 0 else None
        c.check("it left the payment queue", queued is not None and noads not in queued, "queue %r" % queued)

    driver.call("finish_transaction", "an unfinished non-consumable", lambda: client.finish_transaction(noads), finished_verify)
    driver.call("finish_transaction", "unknown id", lambda: client.finish_transaction(UNKNOWN_ID),
                expect=(404, APIError.TRANSACTION_ID_NOT_FOUND))
    driver.call("finish_transaction", "invalid id", lambda: client.finish_transaction("abc"),
                expect=(400, APIError.INVALID_TRANSACTION_ID))

    # =========================================================================================
    # Extend renewal dates: mass, its status, one subscription, the limits
    def latest_expiry(original):
        d = cli.dump()
        latest = max((t for t in d.values() if t["originalTransactionIdentifier"] == original and t["state"] == "purchased"),
                     key=lambda t: int(t["transactionIdentifier"]), default=None)
        return latest, (latest or {}).get("expiresTimestamp")

    mass_id = str(uuid.UUID(int=0xA55E))
    before_mass = latest_expiry(vip)[1]
    driver.call("extend_renewal_date_for_all_active_subscribers", "more than 90 days",
                lambda: client.extend_renewal_date_for_all_active_subscribers(MassExtendRenewalDateRequest(
                    extendByDays=91, extendReasonCode=ExtendReasonCode.SERVICE_ISSUE_OR_OUTAGE,
                    requestIdentifier=str(uuid.uuid4()), productId="com.x.vip2")),
                expect=(400, APIError.INVALID_EXTEND_BY_DAYS))
    driver.call("extend_renewal_date_for_all_active_subscribers", "an unknown storefront",
                lambda: client.extend_renewal_date_for_all_active_subscribers(MassExtendRenewalDateRequest(
                    extendByDays=5, extendReasonCode=ExtendReasonCode.SERVICE_ISSUE_OR_OUTAGE,
                    requestIdentifier=str(uuid.uuid4()), productId="com.x.vip2", storefrontCountryCodes=["XXX"])),
                expect=(400, APIError.INVALID_STOREFRONT_COUNTRY_CODE))

    def mass_verify(c, answer):
        c.eq("requestIdentifier", answer.requestIdentifier, mass_id)
        c.eq("the active vip2 subscription moved 5 days", latest_expiry(vip)[1], (before_mass or 0) + 5 * DAY_MS)

    driver.call("extend_renewal_date_for_all_active_subscribers", "com.x.vip2 by 5 days in USA",
                lambda: client.extend_renewal_date_for_all_active_subscribers(MassExtendRenewalDateRequest(
                    extendByDays=5, extendReasonCode=ExtendReasonCode.SERVICE_ISSUE_OR_OUTAGE, requestIdentifier=mass_id,
                    productId="com.x.vip2", storefrontCountryCodes=["USA"])),
                mass_verify, model="MassExtendRenewalDateResponse")

    def mass_status_verify(c, answer):
        c.eq("requestIdentifier", answer.requestIdentifier, mass_id)
        c.eq("complete", answer.complete, True)
        c.check("completeDate", isinstance(answer.completeDate, int), "completeDate %r" % answer.completeDate)
        c.eq("succeededCount", answer.succeededCount, 1)
        c.eq("failedCount", answer.failedCount, 0)

    driver.call("get_status_of_subscription_renewal_date_extensions", "the mass request",
                lambda: client.get_status_of_subscription_renewal_date_extensions(mass_id, "com.x.vip2"), mass_status_verify,
                model="MassExtendRenewalDateStatusResponse")
    # requestIdentifier: "to resend the same request due to a timeout or other error, use the same
    # request identifier": the resend is answered as the first time and not processed again.
    after_mass = latest_expiry(vip)[1]

    def mass_resend_verify(c, answer):
        c.eq("requestIdentifier", answer.requestIdentifier, mass_id)
        c.eq("the expiry did not move again", latest_expiry(vip)[1], after_mass)
        again = client.get_status_of_subscription_renewal_date_extensions(mass_id, "com.x.vip2")
        c.eq("the status still counts one extended", (again.succeededCount, again.failedCount), (1, 0))
        extended = [e for e in cli.lines("events") if e.get("name") == "renewalExtended" and e.get("requestIdentifier") == mass_id]
        c.eq("one renewalExtended event for the request", len(extended), 1)

    driver.call("extend_renewal_date_for_all_active_subscribers", "the same requestIdentifier again (a resend)",
                lambda: client.extend_renewal_date_for_all_active_subscribers(MassExtendRenewalDateRequest(
                    extendByDays=5, extendReasonCode=ExtendReasonCode.SERVICE_ISSUE_OR_OUTAGE, requestIdentifier=mass_id,
                    productId="com.x.vip2", storefrontCountryCodes=["USA"])),
                mass_resend_verify, model="MassExtendRenewalDateResponse")
    driver.call("get_status_of_subscription_renewal_date_extensions", "unknown request",
                lambda: client.get_status_of_subscription_renewal_date_extensions(str(uuid.UUID(int=7)), "com.x.vip2"),
                expect=(404, APIError.STATUS_REQUEST_NOT_FOUND))

    def extend(original, days, reason=ExtendReasonCode.CUSTOMER_SATISFACTION, request_id=None):
        return lambda: client.extend_subscription_renewal_date(original, ExtendRenewalDateRequest(
            extendByDays=days, extendReasonCode=reason, requestIdentifier=request_id or str(uuid.uuid4())))

    driver.call("extend_subscription_renewal_date", "more than 90 days", extend(vip, 91),
                expect=(400, APIError.INVALID_EXTEND_BY_DAYS))
    driver.call("extend_subscription_renewal_date", "reason code 9", extend(vip, 3, reason=types.SimpleNamespace(value=9)),
                expect=(400, APIError.INVALID_EXTEND_REASON_CODE))
    driver.call("extend_subscription_renewal_date", "an expired subscription", extend(weekly, 3),
                expect=(403, APIError.SUBSCRIPTION_EXTENSION_INELIGIBLE))
    driver.call("extend_subscription_renewal_date", "unknown original id", extend(UNKNOWN_ID, 3),
                expect=(404, APIError.ORIGINAL_TRANSACTION_ID_NOT_FOUND))
    driver.call("extend_subscription_renewal_date", "invalid original id", extend("abc", 3),
                expect=(400, APIError.INVALID_ORIGINAL_TRANSACTION_ID))
    latest_before, expiry_before = latest_expiry(vip)

    def extend_verify(c, answer):
        c.eq("success", answer.success, True)
        c.eq("originalTransactionId", answer.originalTransactionId, vip)
        c.eq("webOrderLineItemId", answer.webOrderLineItemId, (latest_before or {}).get("webOrderLineItemIdentifier"))
        c.eq("effectiveDate is the old expiry + 30 days", answer.effectiveDate, (expiry_before or 0) + 30 * DAY_MS)
        c.eq("dump: the subscription's expiresTimestamp moved", latest_expiry(vip)[1], answer.effectiveDate)

    driver.call("extend_subscription_renewal_date", "30 days (the second extension this year)", extend(vip, 30), extend_verify,
                model="ExtendRenewalDateResponse")
    driver.call("extend_subscription_renewal_date", "a third extension within 365 days", extend(vip, 1),
                expect=(403, APIError.SUBSCRIPTION_MAX_EXTENSION))

    # =========================================================================================
    # Request a Test Notification and Get Test Notification Status
    test_token = {}

    def test_request_verify(c, answer):
        test_token["value"] = answer.testNotificationToken
        c.check("testNotificationToken is a string", isinstance(answer.testNotificationToken, str) and answer.testNotificationToken,
                "%r" % answer.testNotificationToken)
        if webhook:
            got = receiver.wait(lambda: any(kind == "TEST" for _, kind, _ in receiver.notifications), driver.timeout)
            c.check("the webhook received a TEST notification", got, "nothing arrived within %gs" % driver.timeout)

    if webhook:
        driver.call("request_test_notification", "with a webhook", client.request_test_notification, test_request_verify,
                    model="SendTestNotificationResponse")
    else:
        driver.call("request_test_notification", "without a webhook", client.request_test_notification,
                    expect=(404, APIError.SERVER_NOTIFICATION_URL_NOT_FOUND))

    def test_status():
        deadline = time.monotonic() + driver.timeout - 2
        while True:  # the attempt is recorded once the receiver has answered; ask until it is
            answer = client.get_test_notification_status(test_token.get("value") or "missing-token")
            if answer.sendAttempts or time.monotonic() > deadline:
                return answer
            time.sleep(0.05)

    def test_status_verify(c, answer):
        try:
            n = verifier.verify_and_decode_notification(answer.signedPayload)
            c.check("SignedDataVerifier accepts the signedPayload", True)
            c.eq("notificationType", n.rawNotificationType, "TEST")
            c.eq("no subtype", n.rawSubtype, None)
            c.eq("version", n.version, "2.0")
        except VerificationException as error:
            c.check("SignedDataVerifier accepts the signedPayload", False, "VerificationException %s" % error.status.name)
        posted = [p for p, kind, _ in receiver.notifications if kind == "TEST"]
        c.check("the webhook received this signedPayload", answer.signedPayload in posted, "%d TEST posts differ" % len(posted))
        attempts = answer.sendAttempts or []
        c.check("sendAttempts: 1 to 6", 1 <= len(attempts) <= 6, "%d attempts" % len(attempts))
        c.check("every attemptDate is a number", all(isinstance(a.attemptDate, int) for a in attempts), "%r" % attempts)
        c.eq("the last attempt succeeded", attempts[-1].rawSendAttemptResult if attempts else None, SendAttemptResult.SUCCESS.value)

    if webhook:
        driver.call("get_test_notification_status", "the requested test", test_status, test_status_verify,
                    model="CheckTestNotificationResponse")
    driver.call("get_test_notification_status", "not a token", lambda: client.get_test_notification_status("not-a-token"),
                expect=(400, APIError.INVALID_TEST_NOTIFICATION_TOKEN))
    driver.call("get_test_notification_status", "unknown token",
                lambda: client.get_test_notification_status(str(uuid.UUID(int=0xDEAD))),
                expect=(404, APIError.TEST_NOTIFICATION_NOT_FOUND))

    # =========================================================================================
    # Get Notification History
    try:
        listed = cli.lines("notifications", *(["--app-apple-id", str(args.app_apple_id)] if args.app_apple_id is not None else []))
    except Exception as error:
        listed = []
        emit({"method": "get_notification_history", "case": "iapctl notifications", "ok": False, "status": None,
              "apiError": None, "model": None, "checks": [{"check": "iapctl notifications --json", "ok": False, "detail": str(error)}]})
        driver.records.append({"method": "get_notification_history", "ok": False})
    if webhook:  # every listed notification has been posted, and the refused ones retried to the end
        def missing():
            posted = {}
            for payload, _, _ in receiver.notifications:
                posted[payload] = posted.get(payload, 0) + 1
            want = lambda n: args.webhook_attempts if n["notificationType"] == REFUSED_TYPE else 1
            return ["%s %s (%d of %d posts)" % (n["seq"], n["notificationType"], posted.get(n["signedPayload"], 0), want(n))
                    for n in listed if posted.get(n["signedPayload"], 0) < want(n)]
        arrived = receiver.wait(lambda: not missing(), 3 * driver.timeout)
        webhook_checks = Checks()
        webhook_checks.check("the webhook got every notification 'iapctl notifications' lists, byte for byte, and %d posts of "
                             "each refused %s" % (args.webhook_attempts, REFUSED_TYPE), arrived,
                             "not within %gs: %s" % (3 * driver.timeout, "; ".join(missing()[:8])))
        webhook_checks.eq("nothing else was posted", sorted({p for p, _, _ in receiver.notifications} - {n["signedPayload"] for n in listed}), [])
        emit({"method": "webhook", "case": "deliveries of %d notifications" % len(listed), "ok": webhook_checks.ok(), "status": None,
              "apiError": None, "model": None, "checks": webhook_checks.items})
        driver.records.append({"method": "webhook", "ok": webhook_checks.ok()})
    clock = cli.clock_ms()
    window = (clock - 179 * DAY_MS, clock + 1000)
    by_uuid = {n["notificationUUID"]: n for n in listed}

    def history_pages(request):
        pages, token = [], None
        for _ in range(50):
            page = client.get_notification_history(token, request)
            pages.append(page)
            token = page.paginationToken
            if not page.hasMore:
                break
        return pages

    def notification_history_case(case, request, expected):
        def verify(c, pages):
            got = []
            for index, page in enumerate(pages):
                items = page.notificationHistory or []
                c.check("page %d: at most 20 records" % index, len(items) <= 20, "%d records" % len(items))
                if index < len(pages) - 1:
                    c.eq("page %d: full before the last" % index, len(items), 20)
                    c.check("page %d: paginationToken" % index, bool(page.paginationToken), "none")
                for item in items:
                    try:
                        n = verifier.verify_and_decode_notification(item.signedPayload)
                    except VerificationException as error:
                        c.check("SignedDataVerifier accepts every signedPayload", False, "VerificationException %s" % error.status.name)
                        continue
                    got.append(n.notificationUUID)
                    mine = by_uuid.get(n.notificationUUID)
                    c.check("%s: listed by 'iapctl notifications'" % n.notificationUUID, mine is not None, "not listed")
                    if mine is not None:
                        c.eq("%s: signedPayload as 'iapctl notifications' lists it" % n.notificationUUID, item.signedPayload,
                             mine["signedPayload"])
                    attempts = item.sendAttempts or []
                    c.check("%s: 1 to 6 sendAttempts" % n.notificationUUID, 1 <= len(attempts) <= 6, "%d" % len(attempts))
                    results = [a.rawSendAttemptResult for a in attempts]
                    if webhook and n.rawNotificationType == REFUSED_TYPE:
                        c.eq("%s: every attempt refused with HTTP 500" % n.notificationUUID, results,
                             [SendAttemptResult.UNSUCCESSFUL_HTTP_RESPONSE_CODE.value] * args.webhook_attempts)
                    elif webhook:
                        c.eq("%s: delivered at once" % n.notificationUUID, results, [SendAttemptResult.SUCCESS.value])
            c.eq("the notifications (by notificationUUID)", sorted(got), sorted(n["notificationUUID"] for n in expected))
            c.eq("none twice", len(got), len(set(got)))

        driver.call("get_notification_history", case, lambda: history_pages(request), verify, model="[NotificationHistoryResponse]")

    in_window = [n for n in listed if window[0] <= n["timestamp"] < window[1]]

    def about_transactions(n):
        decoded = jwt.decode(n["signedPayload"], options={"verify_signature": False})
        return "signedTransactionInfo" in (decoded.get("data") or {})

    base = dict(startDate=window[0], endDate=window[1])
    notification_history_case("the whole window (two pages)", NotificationHistoryRequest(**base), in_window)
    notification_history_case("notificationType=ONE_TIME_CHARGE",
                              NotificationHistoryRequest(notificationType=NotificationTypeV2.ONE_TIME_CHARGE, **base),
                              [n for n in in_window if n["notificationType"] == "ONE_TIME_CHARGE"])
    notification_history_case("SUBSCRIBED / INITIAL_BUY", NotificationHistoryRequest(
        notificationType=NotificationTypeV2.SUBSCRIBED, notificationSubtype=Subtype.INITIAL_BUY, **base),
        [n for n in in_window if n["notificationType"] == "SUBSCRIBED" and n.get("subtype") == "INITIAL_BUY"])
    notification_history_case("DID_CHANGE_RENEWAL_STATUS / AUTO_RENEW_DISABLED", NotificationHistoryRequest(
        notificationType=NotificationTypeV2.DID_CHANGE_RENEWAL_STATUS, notificationSubtype=Subtype.AUTO_RENEW_DISABLED, **base),
        [n for n in in_window if n["notificationType"] == "DID_CHANGE_RENEWAL_STATUS" and n.get("subtype") == "AUTO_RENEW_DISABLED"])
    notification_history_case("RENEWAL_EXTENSION / SUMMARY", NotificationHistoryRequest(
        notificationType=NotificationTypeV2.RENEWAL_EXTENSION, notificationSubtype=Subtype.SUMMARY, **base),
        [n for n in in_window if n["notificationType"] == "RENEWAL_EXTENSION" and n.get("subtype") == "SUMMARY"])
    notification_history_case("RENEWAL_EXTENDED", NotificationHistoryRequest(notificationType=NotificationTypeV2.RENEWAL_EXTENDED, **base),
                              [n for n in in_window if n["notificationType"] == "RENEWAL_EXTENDED"])
    notification_history_case("transactionId (the account's notifications about transactions)",
                              NotificationHistoryRequest(transactionId=weekly, **base), [n for n in in_window if about_transactions(n)])
    notification_history_case("onlyFailures=True", NotificationHistoryRequest(onlyFailures=True, **base),
                              [n for n in in_window if n["notificationType"] == REFUSED_TYPE] if webhook else [])

    def expect_sent(c, pages):
        for required in ("SUBSCRIBED", "DID_RENEW", "ONE_TIME_CHARGE", "REFUND", "DID_CHANGE_RENEWAL_STATUS", "EXPIRED",
                         "RENEWAL_EXTENDED", "RENEWAL_EXTENSION", "TEST"):
            c.check("'iapctl notifications' lists a %s" % required, any(n["notificationType"] == required for n in listed),
                    "none listed")

    driver.call("get_notification_history", "the scenario caused every expected type",
                lambda: history_pages(NotificationHistoryRequest(**base)), expect_sent, model="[NotificationHistoryResponse]")
    for case, request, error in [
        ("transactionId and notificationType together",
         NotificationHistoryRequest(transactionId=weekly, notificationType=NotificationTypeV2.REFUND, **base), APIError.MULTIPLE_FILTERS_SUPPLIED),
        ("a subtype without its type", NotificationHistoryRequest(notificationSubtype=Subtype.INITIAL_BUY, **base),
         APIError.INVALID_NOTIFICATION_TYPE),
        ("SUBSCRIBED / VOLUNTARY (not a pair)", NotificationHistoryRequest(
            notificationType=NotificationTypeV2.SUBSCRIBED, notificationSubtype=Subtype.VOLUNTARY, **base), APIError.INVALID_NOTIFICATION_TYPE),
        ("endDate before startDate", NotificationHistoryRequest(startDate=window[1], endDate=window[0]), APIError.START_DATE_AFTER_END_DATE),
        ("startDate more than 180 days ago", NotificationHistoryRequest(startDate=clock - 181 * DAY_MS, endDate=window[1]),
         APIError.START_DATE_TOO_FAR_IN_PAST),
        ("no startDate", NotificationHistoryRequest(endDate=window[1]), APIError.INVALID_START_DATE),
        ("no endDate", NotificationHistoryRequest(startDate=window[0]), APIError.INVALID_END_DATE),
    ]:
        driver.call("get_notification_history", case, (lambda r=request: client.get_notification_history(None, r)),
                    expect=(400, error))
    driver.call("get_notification_history", "an altered paginationToken",
                lambda: client.get_notification_history("not-a-token", NotificationHistoryRequest(**base)),
                expect=(400, APIError.INVALID_PAGINATION_TOKEN))

    # =========================================================================================
    # Retention Messaging
    image_id, bullet_id, message = uuid.UUID(int=0x1111), uuid.UUID(int=0x2222), uuid.UUID(message_id)
    full_png, bullet_png = png(3840, 160), png(96, 96)

    def listed_image(wanted, state=ImageState.APPROVED, size=None):
        def verify(c, answer):
            items = {i.imageIdentifier: i for i in answer.imageIdentifiers or []}
            for image, present in wanted.items():
                c.eq("%s listed" % image, image in items, present)
                if present and image in items:
                    c.eq("%s imageState" % image, items[image].rawImageState, state.value)
        return verify

    driver.call("upload_image", "a full-size PNG (3840x160, no alpha)", lambda: client.upload_image(image_id, full_png, ImageSize.FULL_SIZE))
    driver.call("upload_image", "a bullet-point PNG (96x96)", lambda: client.upload_image(bullet_id, bullet_png, ImageSize.BULLET_POINT))
    driver.call("upload_image", "the same identifier again", lambda: client.upload_image(image_id, full_png, ImageSize.FULL_SIZE),
                expect=(409, APIError.IMAGE_ALREADY_EXISTS))
    driver.call("upload_image", "not a PNG", lambda: client.upload_image(uuid.UUID(int=0x3333), b"GIF89a....", ImageSize.FULL_SIZE),
                expect=(400, APIError.INVALID_IMAGE))
    driver.call("upload_image", "a PNG with transparency",
                lambda: client.upload_image(uuid.UUID(int=0x4444), png(3840, 160, alpha=True), ImageSize.FULL_SIZE),
                expect=(400, APIError.INVALID_IMAGE))
    driver.call("get_image_list", "both images, approved", client.get_image_list, listed_image({image_id: True, bullet_id: True}),
                model="GetImageListResponse")

    def message_body(**overrides):
        body = UploadMessageRequestBody(header="Stay with VIP", body="Your plan keeps every feature you use today.",
                                        image=UploadMessageImage(imageIdentifier=image_id, altText="A VIP badge"),
                                        headerPosition=HeaderPosition.ABOVE_IMAGE,
                                        bulletPoints=[BulletPoint(text="No ads", imageIdentifier=bullet_id, altText="check")])
        for key, value in overrides.items():  # past the library's own length checks, as another client could send
            object.__setattr__(body, key, value)
        return body

    driver.call("upload_message", "header, body, image, bullet point", lambda: client.upload_message(message, message_body()))
    driver.call("upload_message", "the same identifier again", lambda: client.upload_message(message, message_body()),
                expect=(409, APIError.MESSAGE_ALREADY_EXISTS))
    for case, overrides, error in [
        ("a 67-character header", {"header": "h" * 67}, APIError.HEADER_TOO_LONG),
        ("a 145-character body", {"body": "b" * 145}, APIError.BODY_TOO_LONG),
        ("ABOVE_IMAGE without an image", {"image": None}, APIError.BAD_REQUEST_ABOVE_IMAGE_REQUIRES_AN_IMAGE),
        ("six bullet points", {"bulletPoints": [BulletPoint(text="x", imageIdentifier=bullet_id, altText="x")] * 6},
         APIError.BAD_REQUEST_TOO_MANY_BULLET_POINTS),
        ("a 67-character bullet point", {"bulletPoints": [BulletPoint(text="x", imageIdentifier=bullet_id, altText="x")]},
         APIError.BAD_REQUEST_BULLET_POINT_TEXT_TOO_LONG),
        ("151-character alternative text", {"image": UploadMessageImage(imageIdentifier=image_id, altText="a")},
         APIError.ALT_TEXT_TOO_LONG),
    ]:
        def invalid(o=overrides):
            body = message_body(**o)
            if o.get("bulletPoints") and len(o["bulletPoints"]) == 1:
                object.__setattr__(body.bulletPoints[0], "text", "t" * 67)
            if o.get("image") is not None:
                object.__setattr__(body.image, "altText", "a" * 151)
            return client.upload_message(uuid.uuid4(), body)
        driver.call("upload_message", case, invalid, expect=(400, error))

    def message_list(present):
        def verify(c, answer):
            items = {i.messageIdentifier: i for i in answer.messageIdentifiers or []}
            c.eq("%s listed" % message, message in items, present)
            if present and message in items:
                c.eq("messageState", items[message].rawMessageState, MessageState.APPROVED.value)
        return verify

    driver.call("get_message_list", "the message, approved", client.get_message_list, message_list(True), model="GetMessageListResponse")
    driver.call("configure_default_message", "com.x.vip2 en-US",
                lambda: client.configure_default_message("com.x.vip2", "en-US", DefaultConfigurationRequest(messageIdentifier=message)))
    driver.call("get_default_message", "com.x.vip2 en-US", lambda: client.get_default_message("com.x.vip2", "en-US"),
                lambda c, a: c.eq("messageIdentifier", a.messageIdentifier, message), model="DefaultConfigurationResponse")
    driver.call("configure_default_message", "an invalid locale",
                lambda: client.configure_default_message("com.x.vip2", "not_a_locale", DefaultConfigurationRequest(messageIdentifier=message)),
                expect=(400, APIError.INVALID_LOCALE))
    driver.call("configure_default_message", "an unknown message",
                lambda: client.configure_default_message("com.x.vip2", "en-US", DefaultConfigurationRequest(messageIdentifier=uuid.UUID(int=9))),
                expect=(404, APIError.MESSAGE_NOT_FOUND))
    driver.call("delete_default_message", "com.x.vip2 en-US", lambda: client.delete_default_message("com.x.vip2", "en-US"))
    driver.call("get_default_message", "after the delete", lambda: client.get_default_message("com.x.vip2", "en-US"),
                expect=(404, APIError.DEFAULT_MESSAGE_NOT_FOUND))
    driver.call("delete_default_message", "none configured", lambda: client.delete_default_message("com.x.vip2", "ja-JP"),
                expect=(404, APIError.DEFAULT_MESSAGE_NOT_FOUND))
    driver.call("delete_image", "an image a message uses", lambda: client.delete_image(image_id), expect=(403, APIError.IMAGE_IN_USE))
    driver.call("delete_message", "the message", lambda: client.delete_message(message))
    driver.call("get_message_list", "after the delete", client.get_message_list, message_list(False), model="GetMessageListResponse")
    driver.call("delete_message", "unknown message", lambda: client.delete_message(message), expect=(404, APIError.MESSAGE_NOT_FOUND))
    driver.call("delete_image", "the full-size image", lambda: client.delete_image(image_id))
    driver.call("get_image_list", "after the delete", client.get_image_list, listed_image({image_id: False, bullet_id: True}),
                model="GetImageListResponse")
    driver.call("delete_image", "unknown image", lambda: client.delete_image(image_id), expect=(404, APIError.IMAGE_NOT_FOUND))

    # Realtime URL and the performance test, which calls it for real (loopback)
    realtime_url = "http://127.0.0.1:%d/retention" % receiver.port
    driver.call("get_realtime_url", "none configured", client.get_realtime_url, expect=(404, APIError.REALTIME_URL_NOT_FOUND))
    driver.call("configure_realtime_url", "a remote URL (loopback only)",
                lambda: client.configure_realtime_url(RealtimeUrlRequest(realtimeURL="https://example.com/retention")),
                expect=(400, APIError.BAD_REQUEST_REALTIME_URL))
    driver.call("configure_realtime_url", "the driver's loopback endpoint",
                lambda: client.configure_realtime_url(RealtimeUrlRequest(realtimeURL=realtime_url)))
    driver.call("get_realtime_url", "configured", client.get_realtime_url,
                lambda c, a: c.eq("realtimeURL", a.realtimeURL, realtime_url), model="RealtimeUrlResponse")
    test_run = {}

    def performance_start_verify(c, answer):
        test_run["id"] = answer.requestId
        test_run["config"] = answer.config
        c.check("requestId", bool(answer.requestId), "none")
        config = answer.config
        c.check("config", config is not None, "none")
        if config is not None:
            for field in ("maxConcurrentRequests", "totalRequests", "totalDuration", "responseTimeThreshold", "successRateThreshold"):
                c.check("config.%s is a positive number" % field, isinstance(getattr(config, field), int) and getattr(config, field) > 0,
                        "%r" % getattr(config, field))

    driver.call("initiate_performance_test", "an active subscription",
                lambda: client.initiate_performance_test(PerformanceTestRequest(originalTransactionId=vip)), performance_start_verify,
                model="PerformanceTestResponse")

    def performance_result():
        config = test_run.get("config")
        total = getattr(config, "totalRequests", None) or 1
        receiver.wait(lambda: len(receiver.realtime) >= total, max(driver.timeout - 5, 1))
        deadline = time.monotonic() + 5
        while True:  # the API reports PENDING until it has recorded the last answer
            answer = client.get_performance_test_results(test_run.get("id") or "missing")
            if answer.rawResult != PerformanceTestStatus.PENDING.value or time.monotonic() > deadline:
                return answer
            time.sleep(0.05)

    def performance_result_verify(c, answer):
        config = test_run.get("config")
        c.eq("result", answer.rawResult, PerformanceTestStatus.PASS.value)
        c.eq("target", answer.target, realtime_url)
        c.eq("numPending", answer.numPending, 0)
        if config is not None:
            c.check("successRate at least the threshold", (answer.successRate or 0) >= (config.successRateThreshold or 101),
                    "%r < %r" % (answer.successRate, config.successRateThreshold))
            c.eq("the endpoint got totalRequests calls", len(receiver.realtime), config.totalRequests)
        times = answer.responseTimes
        c.check("responseTimes p50 <= p90 <= p95 <= p99", times is not None and all(isinstance(getattr(times, f), int) for f in
                ("average", "p50", "p90", "p95", "p99")) and times.p50 <= times.p90 <= times.p95 <= times.p99, "%r" % times)
        c.eq("no failures", answer.failures or {}, {})
        bad = [r for r in receiver.realtime if isinstance(r, str)]
        c.eq("every realtime request verifies (verify_and_decode_realtime_request)", bad, [])
        good = [r for r in receiver.realtime if not isinstance(r, str)]
        c.check("realtime requests name the subscription", all(r.originalTransactionId == vip and r.productId == "com.x.vip2" for r in good),
                "%r" % [(r.originalTransactionId, r.productId) for r in good[:3]])
        c.check("realtime requests carry appAppleId, locale and a request identifier",
                all(isinstance(r.appAppleId, int) and r.userLocale and r.requestIdentifier for r in good), "%r" % good[:1])

    driver.call("get_performance_test_results", "the test run", performance_result, performance_result_verify,
                model="PerformanceTestResultResponse")
    driver.call("get_performance_test_results", "unknown test", lambda: client.get_performance_test_results(str(uuid.UUID(int=0xBEEF))),
                expect=(404, APIError.PERFORMANCE_TEST_RUN_NOT_FOUND))
    driver.call("delete_realtime_url", "configured", client.delete_realtime_url)
    driver.call("get_realtime_url", "after the delete", client.get_realtime_url, expect=(404, APIError.REALTIME_URL_NOT_FOUND))
    driver.call("delete_realtime_url", "none configured", client.delete_realtime_url, expect=(404, APIError.REALTIME_URL_NOT_FOUND))
    driver.call("initiate_performance_test", "without a realtime URL",
                lambda: client.initiate_performance_test(PerformanceTestRequest(originalTransactionId=vip)),
                expect=(404, APIError.REALTIME_URL_NOT_FOUND))

    # =========================================================================================
    # AsyncAppStoreServerAPIClient (httpx): the same server, a few methods
    def run_async(method, *arguments):
        async def go():
            aclient = async_client()
            try:
                return await asyncio.wait_for(getattr(aclient, method)(*arguments), driver.timeout - 1)
            finally:
                await aclient.async_close()
        return lambda: asyncio.run(go())

    driver.call("async get_transaction_info", "a subscription", run_async("get_transaction_info", vip),
                lambda c, a: verify_transaction(c, "signedTransactionInfo", a.signedTransactionInfo), model="TransactionInfoResponse")
    driver.call("async get_transaction_history", "v2 first page",
                run_async("get_transaction_history", vip, None, TransactionHistoryRequest(productTypes=[ProductType.AUTO_RENEWABLE]), V2),
                lambda c, a: (common_response(c, a), decode_all(c, "signedTransactions", a.signedTransactions)), model="HistoryResponse")
    driver.call("async get_all_subscription_statuses", "status=[ACTIVE]", run_async("get_all_subscription_statuses", vip, [Status.ACTIVE]),
                statuses_verify({vip: 1}), model="StatusResponse")
    driver.call("async look_up_order_id", "unknown order id", run_async("look_up_order_id", "ZZZZZZZZZZ"),
                lambda c, a: c.eq("status (1 is invalid)", a.rawStatus, 1), model="OrderLookupResponse")
    driver.call("async get_transaction_info", "invalid id", run_async("get_transaction_info", "abc"),
                expect=(400, APIError.INVALID_TRANSACTION_ID))

    # =========================================================================================
    # Every public method was called
    public = sorted(name for name, member in inspect.getmembers(AppStoreServerAPIClient, inspect.isfunction)
                    if not name.startswith("_") and name in AppStoreServerAPIClient.__dict__)
    coverage = Checks()
    coverage.eq("every public method of AppStoreServerAPIClient was called", sorted(set(public) - driver.exercised), [])
    coverage.eq("AppStoreServerAPIClient has the 30 methods of 3.1.2", len(public), 30)
    emit({"method": "coverage", "case": "%d public methods" % len(public), "ok": coverage.ok(), "status": None, "apiError": None,
          "model": None, "checks": coverage.items})
    driver.records.append({"method": "coverage", "ok": coverage.ok()})


if __name__ == "__main__":
    main()
