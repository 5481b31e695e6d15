#!/usr/bin/env python3
"""Call the App Store Server API for a family member's transactions with Apple's own client.

Usage (run by FamilyServerAPITests, docs/family.md "The server API"):

    family_api.py --base-url http://127.0.0.1:PORT --key AuthKey.p8 --root root.pem \
        --bundle-id com.x.demo --member-transaction ID --purchaser-transaction ID --order-id ORDER

Apple's `AppStoreServerAPIClient` (the pinned app-store-server-library, sending to --base-url
through asl_driver's `LocalClient`) calls Get Transaction Info, Get Transaction History v1 and
v2, Get All Subscription Statuses and Get Refund History with the member's transaction id, and
Look Up Order ID with the purchaser's order id, and Extend a Subscription Renewal Date with the
member's original id (Apple's 4030007 expected); every signed payload is verified and decoded with
the library's `SignedDataVerifier`. It prints one JSON object: each call's decoded transactions
(enum fields as their raw values) and renewal infos, for the caller to judge. Exit 0 when every
call answered and every payload verified, 1 otherwise (the JSON says which), 3 when the library
is missing.
"""

import argparse
import json
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

try:
    import attr
    from cryptography import x509
    from cryptography.hazmat.primitives import serialization
    from appstoreserverlibrary.api_client import APIException, GetTransactionHistoryVersion
    from appstoreserverlibrary.signed_data_verifier import SignedDataVerifier, VerificationException
    from appstoreserverlibrary.models.Environment import Environment
    from appstoreserverlibrary.models.ExtendReasonCode import ExtendReasonCode
    from appstoreserverlibrary.models.ExtendRenewalDateRequest import ExtendRenewalDateRequest
    from appstoreserverlibrary.models.InAppOwnershipType import InAppOwnershipType
    from appstoreserverlibrary.models.NotificationHistoryRequest import NotificationHistoryRequest
    from appstoreserverlibrary.models.TransactionHistoryRequest import TransactionHistoryRequest
    from asl_driver import LocalClient
except ImportError as error:  # a missing library is a failure, never a skip
    print(json.dumps({"error": "app-store-server-library is not importable: %s" % error}), flush=True)
    sys.exit(3)


def plain(o):
    """A decoded model as JSON: enums as raw values, absent fields left out."""
    d = attr.asdict(o, recurse=False)

    def value(x):
        if attr.has(type(x)):
            return plain(x)
        return x.value if hasattr(x, "value") else x

    return {k: value(x) for k, x in d.items() if not k.startswith("raw") and x is not None}


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--base-url", required=True)
    parser.add_argument("--key", required=True, help="the App Store Connect key (.p8) serve was given")
    parser.add_argument("--key-id", default="ABC123DEFG")
    parser.add_argument("--issuer-id", default="57246542-96fe-1a63-e053-0824d011072a")
    parser.add_argument("--root", required=True)
    parser.add_argument("--bundle-id", default="com.x.demo")
    parser.add_argument("--environment", default="Sandbox")
    parser.add_argument("--member-transaction", required=True)
    parser.add_argument("--purchaser-transaction", required=True)
    parser.add_argument("--order-id", required=True)
    parser.add_argument("--clock-ms", type=int, help="the store's clock: Get Notification History by the member's id")
    parser.add_argument("--member-original", help="a member's shared subscription's original id: extend it (4030007)")
    args = parser.parse_args()
    os.environ["NO_PROXY"] = os.environ["no_proxy"] = "127.0.0.1,localhost,::1"

    root = x509.load_pem_x509_certificate(open(args.root, "rb").read()).public_bytes(serialization.Encoding.DER)
    verifier = SignedDataVerifier([root], enable_online_checks=False, environment=Environment(args.environment),
                                  bundle_id=args.bundle_id)
    client = LocalClient(args.base_url, open(args.key, "rb").read(), args.key_id, args.issuer_id, args.bundle_id,
                         Environment.SANDBOX)
    out = {"errors": []}

    def transactions(name, tokens):
        decoded = []
        for token in tokens or []:
            try:
                decoded.append(plain(verifier.verify_and_decode_signed_transaction(token)))
            except VerificationException as error:
                out["errors"].append("%s: VerificationException %s" % (name, error.status.name))
        return decoded

    def call(name, invoke):
        try:
            out[name] = invoke()
        except APIException as error:
            out["errors"].append("%s: HTTP %s errorCode %s %s" % (name, error.http_status_code, error.raw_api_error,
                                                                   error.error_message))
        except Exception as error:  # a failed call is reported, never a silent stop
            out["errors"].append("%s: %r" % (name, error))

    member = args.member_transaction
    call("transactionInfo", lambda: transactions(
        "transactionInfo", [client.get_transaction_info(member).signedTransactionInfo]))

    def history(version, request=None):
        pages, revision = [], None
        for _ in range(10):
            page = client.get_transaction_history(member, revision, request or TransactionHistoryRequest(), version)
            pages += transactions("history", page.signedTransactions)
            revision = page.revision
            if not page.hasMore:
                break
        return pages

    call("historyV1", lambda: history(GetTransactionHistoryVersion.V1))
    call("historyV2", lambda: history(GetTransactionHistoryVersion.V2))
    call("historyV2Purchased", lambda: history(
        GetTransactionHistoryVersion.V2, TransactionHistoryRequest(inAppOwnershipType=InAppOwnershipType.PURCHASED)))
    call("purchaserHistory", lambda: transactions("purchaserHistory", client.get_transaction_history(
        args.purchaser_transaction, None, TransactionHistoryRequest(), GetTransactionHistoryVersion.V2).signedTransactions))

    def statuses():
        answer = client.get_all_subscription_statuses(member)
        groups = []
        for group in answer.data or []:
            items = []
            for item in group.lastTransactions or []:
                try:
                    renewal = plain(verifier.verify_and_decode_renewal_info(item.signedRenewalInfo))
                except VerificationException as error:
                    out["errors"].append("statuses: renewal VerificationException %s" % error.status.name)
                    renewal = None
                items.append({"status": item.rawStatus, "originalTransactionId": item.originalTransactionId,
                              "transaction": (transactions("statuses", [item.signedTransactionInfo]) or [None])[0],
                              "renewal": renewal})
            groups.append({"subscriptionGroupIdentifier": group.subscriptionGroupIdentifier, "lastTransactions": items})
        return groups

    call("statuses", statuses)

    def refunds():
        answer = client.get_refund_history(member, None)
        return transactions("refunds", answer.signedTransactions)

    call("refunds", refunds)

    def order():
        answer = client.look_up_order_id(args.order_id)
        return {"status": answer.rawStatus, "transactions": transactions("order", answer.signedTransactions)}

    call("order", order)

    def extension():
        # A member's shared subscription cannot be extended itself: Apple's 4030007.
        request = ExtendRenewalDateRequest(extendByDays=1, extendReasonCode=ExtendReasonCode.CUSTOMER_SATISFACTION,
                                           requestIdentifier="5f1e3c1a-0c2b-4d4e-9f10-1a2b3c4d5e6f")
        try:
            client.extend_subscription_renewal_date(args.member_original, request)
        except APIException as error:
            return {"status": error.http_status_code, "errorCode": error.raw_api_error}
        return {"status": 200}

    if args.member_original:
        call("extension", extension)

    def notifications(transaction_id):
        # Get Notification History limited "to this one customer" by a transaction id.
        request = NotificationHistoryRequest(startDate=args.clock_ms - 179 * 86_400_000, endDate=args.clock_ms + 1000,
                                             transactionId=transaction_id)
        listed, token = [], None
        for _ in range(10):
            page = client.get_notification_history(token, request)
            for item in page.notificationHistory or []:
                try:
                    n = verifier.verify_and_decode_notification(item.signedPayload)
                except VerificationException as error:
                    out["errors"].append("notifications: VerificationException %s" % error.status.name)
                    continue
                t = (transactions("notifications", [n.data.signedTransactionInfo]) or [{}])[0] if n.data else {}
                listed.append({"notificationType": n.rawNotificationType, "transactionId": t.get("transactionId"),
                               "inAppOwnershipType": t.get("inAppOwnershipType")})
            token = page.paginationToken
            if not page.hasMore:
                break
        return listed

    if args.clock_ms:
        call("memberNotifications", lambda: notifications(member))
        call("purchaserNotifications", lambda: notifications(args.purchaser_transaction))
    print(json.dumps(out, sort_keys=True), flush=True)
    sys.exit(0 if not out["errors"] else 1)


if __name__ == "__main__":
    main()
