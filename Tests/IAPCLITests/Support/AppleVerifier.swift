import Foundation
import IAPKit

@testable import IAPJSON

/// Apple's `app-store-server-library` (`SignedDataVerifier`, pinned in `requirements-test.txt`)
/// run on signed data from Python: the root, the bundle id and the environment as a backend
/// would configure it, online checks off. A missing library is a failure, never a skip.
enum AppleVerifier {
    enum Kind: String {
        case transaction = "t"
        case renewal = "r"
        case notification = "n"
    }

    /// Reads `KIND TOKEN` lines on stdin, prints one JSON object a line: the decoded payload
    /// (enums as their raw values, absent fields left out; a notification's `data` decoded too)
    /// or `{"error": STATUS}` for a `VerificationException`.
    static let script = """
        import sys, json
        try:
            import attr
            from cryptography import x509
            from cryptography.hazmat.primitives import serialization
            from appstoreserverlibrary.signed_data_verifier import SignedDataVerifier, VerificationException
            from appstoreserverlibrary.models.Environment import Environment
        except ImportError as e:
            print("app-store-server-library is not importable by %s (%s); run 'make test', which sets up .build/venv from requirements-test.txt and puts it first on PATH" % (sys.executable, e), file=sys.stderr)
            sys.exit(3)
        root = x509.load_pem_x509_certificate(open(sys.argv[1], 'rb').read()).public_bytes(serialization.Encoding.DER)
        app_apple_id = int(sys.argv[4]) if len(sys.argv) > 4 else None
        verifier = SignedDataVerifier([root], enable_online_checks=False, environment=Environment(sys.argv[3]),
                                      bundle_id=sys.argv[2], app_apple_id=app_apple_id)
        def plain(o):
            d = attr.asdict(o, recurse=False)
            return {k: (x.value if hasattr(x, 'value') else x) for k, x in d.items() if not k.startswith('raw') and x is not None}
        for line in sys.stdin:
            kind, token = line.strip().split(' ', 1)
            try:
                if kind == 't':
                    out = plain(verifier.verify_and_decode_signed_transaction(token))
                elif kind == 'r':
                    out = plain(verifier.verify_and_decode_renewal_info(token))
                else:
                    n = verifier.verify_and_decode_notification(token)
                    out = plain(n)
                    out['data'] = plain(n.data) if n.data else None
            except VerificationException as e:
                out = {'error': e.status.name}
            print(json.dumps(out, sort_keys=True), flush=True)
        """

    struct Failure: Error, CustomStringConvertible {
        let description: String
    }

    /// Verifies and decodes each token; one result per token, in order.
    static func decode(
        _ items: [(Kind, String)], root: String = CLIHarness.fixture("signing/root.pem"), bundleID: String = "com.x.demo",
        environment: String = "Sandbox", appAppleID: Int64? = nil
    ) throws -> [JSONValue] {
        let stdin = items.map { "\($0.0.rawValue) \($0.1)\n" }.joined()
        var arguments = ["-c", script, root, bundleID, environment]
        if let appAppleID { arguments.append(String(appAppleID)) }
        let r = try ExternalTool.run("python3", arguments, stdin: stdin)
        guard r.code == 0 else { throw Failure(description: "python3 SignedDataVerifier failed (\(r.code)): \(r.stderr)") }
        let lines = r.stdout.split(separator: "\n")
        guard lines.count == items.count else {
            throw Failure(description: "expected \(items.count) results, got \(lines.count): \(r.stdout) \(r.stderr)")
        }
        return try lines.map { try JSONParser.parse(String($0)) }
    }
}
