import IAPCrypto
import IAPKit

/// `iapctl receipt [--der FILE]` and `iapctl receipt decode FILE|-`: the store's app receipt
/// (`Bundle.main.appStoreReceiptURL`), and reading any receipt (REFERENCE section 5).
enum ReceiptCommand {
    static let group = CommandSpec(
        name: "receipt",
        summary: "Print the store's signed app receipt, or decode any receipt",
        discussion: """
            'iapctl receipt' prints the store's app receipt as one line of base64: PKCS#7 SignedData signed by the \
            store's leaf certificate with ecdsa-with-SHA256, the leaf and intermediate embedded, holding the \
            payload Apple documents (environment, bundle id, versions, opaque value, SHA-1 hash, creation date, \
            one in-app entry per non-consumable, subscription transaction and unfinished consumable). The same \
            store gives the same bytes. 'iapctl receipt decode' reads receipts made anywhere, Xcode's included.
            """,
        subcommands: [show.spec, decode.spec],
        defaultSubcommand: "show"
    )

    static let children = [show, decode]

    static let show = CommandDefinition(
        CommandSpec(
            name: "show",
            summary: "Print the store's app receipt (base64; --der writes DER; --json decodes it)",
            discussion: """
                The default of 'iapctl receipt'. With --der FILE the DER bytes are written to FILE (atomically) \
                and a summary line is printed; with --json the receipt is printed decoded, in the shape of \
                'iapctl receipt decode --json'. Reading the receipt changes nothing in the store.
                """,
            options: [.value("der", "file", help: "Write the receipt's DER bytes to this file"), MemberOption.spec],
            examples: [
                "iapctl receipt > receipt.b64", "iapctl receipt --der receipt.der", "iapctl receipt --json",
                "iapctl receipt --member alex --json",
            ]
        ), run: runShow)

    static let decode = CommandDefinition(
        CommandSpec(
            name: "decode",
            summary: "Decode a receipt (base64 or DER; - for stdin), Xcode's BER receipts included",
            discussion: """
                Prints the payload and the envelope: text by default, the JSON of 'iapctl receipt --json' with \
                --json. No signature is checked (see 'iapctl verify'). A malformed receipt exits 65 naming the \
                byte offset and what was expected there; a missing file exits 66. Needs no store.
                """,
            arguments: [ArgumentSpec("FILE", help: "The receipt: base64 text or DER bytes, or - for stdin")],
            examples: ["iapctl receipt decode receipt.b64", "iapctl receipt | iapctl receipt decode - --json"]
        ), run: runDecode)

    static func runShow(_ c: CommandContext) throws -> ExitCode {
        let i = c.invocation
        let derPath = i.value("der")
        if let derPath, derPath.isEmpty { throw i.usageError("empty --der; give the file to write the receipt to") }
        return try c.read { s throws(StoreError) in
            let (der, _) = try StoreReceipt.build(s, member: try MemberOption.member(c, in: s.state))
            if let derPath { try OutputFile.write(der, to: derPath) }
            if c.json {
                let decoded: DecodedReceipt
                do throws(ReceiptError) {
                    decoded = try DecodedReceipt.decode(der)
                } catch {
                    throw error.storeError(source: "of store \(s.storePath)")
                }
                c.printJSON { ReceiptJSON.write(decoded, into: &$0) }
            } else if let derPath {
                c.stdout.line("wrote the app receipt (\(der.count) bytes, DER) to \(derPath)")
            } else {
                c.stdout.line(Base64.encode(der))
            }
            return .success
        }
    }

    static func runDecode(_ c: CommandContext) throws -> ExitCode {
        let (decoded, _) = try ReceiptArgument.decode(c.invocation.positional("FILE") ?? "-", c)
        if c.json {
            c.printJSON { ReceiptJSON.write(decoded, into: &$0) }
        } else {
            for line in ReceiptText.lines(decoded) { c.stdout.line(line) }
        }
        return .success
    }
}

/// A receipt named on the command line: a file (base64 or DER) or `-` for stdin.
enum ReceiptArgument {
    /// The raw input bytes of `FILE`; exit 66 when it cannot be read.
    static func bytes(_ path: String, _ c: CommandContext) throws -> [UInt8] {
        path == "-" ? c.standardInput() : try ReceiptFile.read(path)
    }

    /// The decoded receipt and its raw input; exit 65 naming the byte offset when malformed.
    static func decode(_ path: String, _ c: CommandContext) throws -> (DecodedReceipt, [UInt8]) {
        let input = try bytes(path, c)
        do throws(ReceiptError) {
            return (try DecodedReceipt.decode(input), input)
        } catch {
            throw error.storeError(source: path == "-" ? "from stdin" : "'\(path)'")
        }
    }
}
