import IAPCrypto
import IAPJSON
import IAPKit

/// `iapctl verify-receipt`: the JSON Apple's legacy verifyReceipt endpoint would answer
/// (REFERENCE section 6), as DYFStoreKit's and RMStore's remote verifiers receive it.
enum VerifyReceiptCommand {
    static let definition = CommandDefinition(
        CommandSpec(
            name: "verify-receipt",
            summary: "Print the JSON Apple's verifyReceipt endpoint would answer for a receipt",
            discussion: """
                Sends {"receipt-data", "password", "exclude-old-transactions"} to the emulated endpoint and prints \
                its response, one JSON line (the output is always JSON). Status: 0 valid; 21000 not a JSON \
                request; 21002 malformed or missing receipt data, or an Xcode/LocalTesting receipt; 21003 the \
                signature or chain does not verify against the store's root; 21004 the shared secret does not \
                match (receipts with auto-renewable subscriptions, when 'config set shared-secret' is set); 21007 \
                a sandbox receipt sent to production; 21008 a production receipt sent to sandbox. An armed \
                verification fault answers its status instead ('iapctl fault add verification 21005'); 21005 and \
                21100-21149 have "is-retryable": true, 21150-21199 false. Apple's advice (and the seeds'): try \
                production first, and on 21007 the sandbox. Exit 0 for status 0, 1 for any other status.
                """,
            arguments: [
                ArgumentSpec("FILE", help: "The receipt, base64 or DER, or - for stdin (default: the store's)", optional: true)
            ],
            options: [
                .value("password", "secret", help: "The app's shared secret (auto-renewable subscriptions)"),
                .value("environment", "name", help: "The endpoint: sandbox or production (default: sandbox)"),
                .flag(
                    "exclude-old-transactions", help: "Only the latest transaction of each subscription in latest_receipt_info"),
            ],
            examples: [
                "iapctl verify-receipt", "iapctl receipt > r.b64 && iapctl verify-receipt r.b64 --environment production",
                "iapctl verify-receipt - --password 0123456789abcdef < r.b64",
            ]
        ), run: run)

    static func run(_ c: CommandContext) throws -> ExitCode {
        let i = c.invocation
        let endpoint = VerifyReceiptEndpoint(
            rawValue: try i.choice("environment", among: VerifyReceiptEndpoint.allCases.map(\.rawValue)) ?? "sandbox")!
        let given = try i.positional("FILE").map { try ReceiptArgument.bytes($0, c) }
        return try c.write { s throws(StoreError) in
            let receiptData: String
            if let given {
                // DER is sent as base64, as apps send `appStoreReceiptURL`'s bytes; text as it is.
                receiptData = given.first == 0x30 ? Base64.encode(given) : String(decoding: given, as: UTF8.self)
            } else {
                receiptData = Base64.encode(try StoreReceipt.build(s).der)
            }
            var w = JSONWriter(capacity: receiptData.utf8.count + 128)
            w.beginObject()
            w.key("receipt-data")
            w.string(receiptData.trimmingWhitespace)
            if let password = i.value("password") {
                w.key("password")
                w.string(password)
            }
            w.key("exclude-old-transactions")
            w.bool(i.flag("exclude-old-transactions"))
            w.endObject()
            let (status, body) = try ReceiptVerification.response(requestBody: w.bytes, endpoint: endpoint, session: s)
            c.stdout.write(body)
            return status == 0 ? .success : .declined
        }
    }
}

extension String {
    /// Without leading and trailing spaces and line breaks.
    var trimmingWhitespace: String {
        let scalars = unicodeScalars
        let isSpace: (Unicode.Scalar) -> Bool = { $0 == " " || $0 == "\n" || $0 == "\r" || $0 == "\t" }
        guard let start = scalars.firstIndex(where: { !isSpace($0) }), let end = scalars.lastIndex(where: { !isSpace($0) }) else {
            return ""
        }
        return String(scalars[start...end])
    }
}
