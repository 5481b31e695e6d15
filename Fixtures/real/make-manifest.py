#!/usr/bin/env python3
"""Writes Fixtures/real/manifest.json from the files in Fixtures/real, read only with tools
nobody in this project wrote: `openssl asn1parse` / `openssl pkcs7` / `openssl x509` /
`openssl cms` for receipts and certificates, and Apple's app-store-server-library
(PyPI `app-store-server-library`, pinned 3.1.2) for JWS verification and decoding.

Run with the library's interpreter, from the repository root:

    python3 -m venv /tmp/asl && /tmp/asl/bin/pip install app-store-server-library==3.1.2
    /tmp/asl/bin/python Fixtures/real/make-manifest.py

The output is deterministic (sorted file lists, sorted keys); it does not depend on the clock,
except for the verdicts of JWS without a `signedDate`, which Apple's verifier checks at the
current time (recorded as `verifiedAt: "now"`).
"""

import base64
import datetime
import glob
import hashlib
import json
import os
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))


def openssl(args, data=None):
    result = subprocess.run(["openssl"] + args, input=data, capture_output=True)
    return result.returncode, result.stdout.decode("utf-8", "replace"), result.stderr.decode("utf-8", "replace")


# ---------------------------------------------------------------- ASN.1 via `openssl asn1parse`

def asn1_lines(der):
    """`openssl asn1parse -i` of DER/BER bytes, as (offset, depth, header length, length, cons, tag, value)."""
    code, out, err = openssl(["asn1parse", "-inform", "DER", "-i"], der)
    rows = []
    for line in out.splitlines():
        if ":d=" not in line:
            continue
        head, rest = line.split(":d=", 1)
        offset = int(head.strip())
        depth = int(rest.split()[0])
        hl = int(rest.split("hl=")[1].split()[0])
        length_text = rest.split("l=", 2)[2].split()[0] if rest.count("l=") >= 2 else "0"
        length = None if length_text == "inf" else int(length_text)
        cons = " cons: " in line
        tail = line.split("prim:" if not cons else "cons:", 1)[1]
        tag, _, value = tail.partition(":")
        rows.append((offset, depth, hl, length, cons, tag.split("[")[0].strip(), value.strip()))
    return rows


def value_of(der):
    """The one value a receipt attribute's OCTET STRING holds, as openssl prints it."""
    rows = asn1_lines(der)
    if not rows:
        return {"hex": der.hex()}
    offset, depth, hl, length, cons, tag, value = rows[0]
    if tag == "INTEGER":
        return int(value, 16) if value and not value.startswith("BAD") else value
    if tag in ("UTF8STRING", "IA5STRING", "PRINTABLESTRING"):
        return der[hl:hl + length].decode("utf-8")
    return {"tag": tag, "hex": der.hex()}


def attributes(der):
    """A receipt or in-app SET of SEQUENCE {type INTEGER, version INTEGER, value OCTET STRING}."""
    rows = asn1_lines(der)
    attrs = []
    i = 0
    while i < len(rows):
        offset, depth, hl, length, cons, tag, value = rows[i]
        if depth == 1 and tag == "SEQUENCE":
            t = int(rows[i + 1][6], 16)
            v = int(rows[i + 2][6], 16)
            o = rows[i + 3]
            raw = der[o[0] + o[2]:o[0] + o[2] + o[3]]
            attrs.append((t, v, raw))
        i += 1
    return attrs


def payload_bytes(der):
    """The content of encapContentInfo (pkcs7-data), DER or Xcode's indefinite-length BER."""
    rows = asn1_lines(der)
    for i, row in enumerate(rows):
        if row[5] == "OBJECT" and row[6] == "pkcs7-data":
            chunks = []
            for later in rows[i + 1:]:
                if later[5] == "OCTET STRING" and not later[4]:
                    chunks.append(der[later[0] + later[2]:later[0] + later[2] + later[3]])
                    # DER has one OCTET STRING; BER may split it; the SET that follows ends it.
                    if later[1] <= row[1] + 2:
                        break
                elif chunks and later[5] != "EOC":
                    break
            return b"".join(chunks)
    raise ValueError("no pkcs7-data content")


RECEIPT_FIELDS = {0: "environment", 2: "bundleId", 3: "appVersion", 12: "creationDate",
                  19: "originalAppVersion", 21: "expirationDate"}
IN_APP_FIELDS = {1701: "quantity", 1702: "productId", 1703: "transactionId", 1704: "purchaseDate",
                 1705: "originalTransactionId", 1706: "originalPurchaseDate",
                 1708: "subscriptionExpirationDate", 1711: "webOrderLineItemId",
                 1712: "cancellationDate", 1719: "isInIntroOfferPeriod"}


def receipt_entry(path):
    text = open(path).read()
    der = base64.b64decode(text)
    payload = payload_bytes(der)
    fields = {}
    in_apps = []
    for t, v, raw in attributes(payload):
        if t == 17:
            purchase = {}
            for it, iv, iraw in attributes(raw):
                if it in IN_APP_FIELDS:
                    purchase[IN_APP_FIELDS[it]] = value_of(iraw)
            in_apps.append(purchase)
        elif t in RECEIPT_FIELDS:
            fields[RECEIPT_FIELDS[t]] = value_of(raw)
    objects = [r[6] for r in asn1_lines(der) if r[5] == "OBJECT"]
    code, certs, _ = openssl(["pkcs7", "-inform", "DER", "-print_certs"], der)
    chain = []
    for block in certs.split("-----END CERTIFICATE-----")[:-1]:
        pem = block[block.index("-----BEGIN CERTIFICATE-----"):] + "-----END CERTIFICATE-----\n"
        _, info, _ = openssl(["x509", "-noout", "-subject", "-issuer", "-startdate", "-enddate",
                              "-fingerprint", "-sha256", "-nameopt", "oneline"], pem.encode())
        lines = dict(line.split("=", 1) for line in info.splitlines())
        chain.append({"subject": lines["subject"].strip(), "issuer": lines["issuer"].strip(),
                      "notBefore": lines["notBefore"], "notAfter": lines["notAfter"],
                      "sha256": lines.get("sha256 Fingerprint", lines.get("SHA256 Fingerprint", ""))})
    from appstoreserverlibrary.receipt_utility import ReceiptUtility
    try:
        extracted = ReceiptUtility().extract_transaction_id_from_app_receipt(text)
    except Exception as error:  # the library refuses some receipts; record what it said
        extracted = "error: " + type(error).__name__
    indefinite = any(r[3] is None for r in asn1_lines(der))
    xcode = fields.get("environment") == "Xcode"
    anchor = os.path.join(HERE, "certs", "xcode-storekit-self-signed.der" if xcode else "apple-inc-root.der")
    _, anchor_pem, _ = openssl(["x509", "-inform", "DER", "-in", anchor])
    anchor_path = "/tmp/make-manifest-anchor.pem"
    open(anchor_path, "w").write(anchor_pem)
    created = datetime.datetime.strptime(fields["creationDate"].replace("Z", "+0000"), "%Y-%m-%dT%H:%M:%S%z")
    code, _, err = openssl(["cms", "-verify", "-inform", "DER", "-binary", "-purpose", "any", "-CAfile", anchor_path,
                            "-attime", str(int(created.timestamp())), "-out", "/dev/null"], der)
    cms = {"anchor": os.path.relpath(anchor, HERE), "at": "creationDate",
           "verdict": "OK" if code == 0 else (err.strip().splitlines() or ["failed"])[-1]}
    return {
        "file": os.path.relpath(path, HERE),
        "sha256": hashlib.sha256(text.encode()).hexdigest(),
        "encoding": "BER (indefinite lengths)" if indefinite else "DER",
        "bytes": len(der),
        **fields,
        "inAppCount": len(in_apps),
        "inApp": in_apps,
        "digestAlgorithm": objects[objects.index("pkcs7-data") - 1] if "pkcs7-data" in objects else None,
        "signerDigestAlgorithm": objects[-2],
        "signerSignatureAlgorithm": objects[-1],
        "chain": chain,
        "receiptUtilityTransactionId": extracted,
        "opensslCmsVerify": cms,
    }


# ---------------------------------------------------------------- JWS via Apple's library

def b64url(text):
    return base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))


def jws_entry(path, root_g3):
    from appstoreserverlibrary.models.Environment import Environment
    from appstoreserverlibrary.signed_data_verifier import SignedDataVerifier, VerificationException

    jws = open(path).read().strip()
    header = json.loads(b64url(jws.split(".")[0]))
    payload = json.loads(b64url(jws.split(".")[1]))
    if "notificationType" in payload:
        kind = "notification"
        data = payload.get("data") or {}
        environment, bundle_id, app_apple_id = data.get("environment"), data.get("bundleId"), data.get("appAppleId")
    elif "transactionId" in payload:
        kind = "transaction"
        environment, bundle_id, app_apple_id = payload.get("environment"), payload.get("bundleId"), None
    elif "autoRenewStatus" in payload or "autoRenewProductId" in payload:
        kind = "renewalInfo"
        environment, bundle_id, app_apple_id = payload.get("environment"), None, None
    else:
        kind = "appTransaction"
        environment, bundle_id, app_apple_id = payload.get("receiptType"), payload.get("bundleId"), payload.get("appAppleId")
    env = {"Sandbox": Environment.SANDBOX, "Production": Environment.PRODUCTION}.get(environment, Environment.SANDBOX)
    # Renewal infos carry no bundle id; Apple's verifier checks none for them.
    verifier = SignedDataVerifier([root_g3], False, env, bundle_id or "unused.for.renewal.info",
                                  app_apple_id if env == Environment.PRODUCTION else None)
    method = {"notification": verifier.verify_and_decode_notification,
              "transaction": verifier.verify_and_decode_signed_transaction,
              "renewalInfo": verifier.verify_and_decode_renewal_info,
              "appTransaction": verifier.verify_and_decode_app_transaction}[kind]
    try:
        decoded = method(jws)
        verdict = "OK"
    except VerificationException as error:
        decoded = None
        verdict = error.status.name
    signed_date = payload.get("signedDate")
    transaction = payload
    if kind == "notification":
        inner = (payload.get("data") or {}).get("signedTransactionInfo")
        transaction = json.loads(b64url(inner.split(".")[1])) if inner else {}
    x5c = []
    for cert in header.get("x5c", []):
        _, info, _ = openssl(["x509", "-inform", "DER", "-noout", "-subject", "-startdate", "-enddate",
                              "-nameopt", "oneline"], base64.b64decode(cert))
        lines = dict(line.split("=", 1) for line in info.splitlines())
        x5c.append({"subject": lines["subject"].strip(), "notBefore": lines["notBefore"], "notAfter": lines["notAfter"],
                    "sha256": hashlib.sha256(base64.b64decode(cert)).hexdigest()})
    entry = {
        "file": os.path.relpath(path, HERE),
        "sha256": hashlib.sha256(jws.encode()).hexdigest(),
        "kind": kind,
        "alg": header.get("alg"),
        "notificationType": payload.get("notificationType"),
        "subtype": payload.get("subtype"),
        "notificationUUID": payload.get("notificationUUID"),
        "transactionId": transaction.get("transactionId"),
        "originalTransactionId": transaction.get("originalTransactionId") or payload.get("originalTransactionId"),
        "productId": transaction.get("productId") or payload.get("productId"),
        "bundleId": bundle_id,
        "environment": environment,
        "signedDate": signed_date,
        "verifiedWith": {"environment": env.name, "bundleId": bundle_id, "appAppleId": app_apple_id,
                         "onlineChecks": False, "root": "Apple Root CA - G3"},
        "verifiedAt": "signedDate" if signed_date is not None else "now",
        "appleVerifierVerdict": verdict,
        "x5c": x5c,
        "payload": payload,
    }
    if decoded is not None:
        entry["appleDecoded"] = {k: (v.name if hasattr(v, "name") else v)
                                 for k, v in sorted(vars(decoded).items()) if v is not None and not k.startswith("_")
                                 and not hasattr(v, "__dict__")}
    return entry


def cert_entry(path):
    der = open(path, "rb").read()
    _, info, _ = openssl(["x509", "-inform", "DER", "-noout", "-subject", "-issuer", "-startdate", "-enddate",
                          "-nameopt", "oneline"], der)
    lines = dict(line.split("=", 1) for line in info.splitlines())
    return {"file": os.path.relpath(path, HERE), "subject": lines["subject"].strip(), "issuer": lines["issuer"].strip(),
            "notBefore": lines["notBefore"], "notAfter": lines["notAfter"], "sha256": hashlib.sha256(der).hexdigest()}


def main():
    root_g3 = open(os.path.join(HERE, "certs", "apple-root-ca-g3.der"), "rb").read()
    manifest = {
        "generatedBy": "Fixtures/real/make-manifest.py (openssl, app-store-server-library 3.1.2)",
        "receipts": [receipt_entry(p) for p in sorted(glob.glob(os.path.join(HERE, "receipts", "*", "*.b64")))],
        "jws": [jws_entry(p, root_g3) for p in sorted(glob.glob(os.path.join(HERE, "jws", "*.jws")))],
        "certs": [cert_entry(p) for p in sorted(glob.glob(os.path.join(HERE, "certs", "*.der")))],
    }
    json.dump(manifest, sys.stdout, indent=2, sort_keys=True, ensure_ascii=False)
    sys.stdout.write("\n")


if __name__ == "__main__":
    main()
