import IAPCrypto
import IAPKit
import IAPRuntime
import IAPTime

extension FuzzEntryPoints {
    /// The scenario file parser (`iapctl run`). Every answer is well formed: lines are numbered
    /// in order within the text; an error names a line and column inside it, on one line.
    package static func scenario(_ bytes: [UInt8]) {
        let lineCount = bytes.count { $0 == 0x0A } + 1
        do {
            let lines = try ScenarioParser.parse(bytes: bytes, vocabulary: .iapctl)
            var previous = 0
            for line in lines {
                precondition(line.number > previous && line.number <= lineCount, "line number \(line.number) out of order")
                precondition(!line.text.contains("\n"), "a line's text spans lines")
                previous = line.number
                if case .command(let words) = line.kind { checkRequoting(words) }
            }
        } catch {
            precondition((1...lineCount).contains(error.line), "error line \(error.line) outside 1...\(lineCount)")
            precondition(error.column >= 1 && error.column <= bytes.count + 1, "error column \(error.column) outside the text")
            precondition(!error.message.isEmpty && !error.message.contains("\n"), "an error is not one line: \(error.message)")
        }
    }

    /// A command line's words, quoted back (`'it'\''s'`, `${NAME}`) and parsed again, are the
    /// same words: the tokenizer loses nothing and invents nothing.
    private static func checkRequoting(_ words: [ScenarioWord]) {
        var names: [String] = []
        let line = words.map { word -> String in
            guard !word.parts.isEmpty else { return "''" }
            return word.parts.map { part -> String in
                switch part {
                case .text(let text):
                    return "'" + text.split(separator: "'", omittingEmptySubsequences: false).joined(separator: "'\\''") + "'"
                case .variable(let name):
                    if !names.contains(name) { names.append(name) }
                    return "${\(name)}"
                }
            }.joined()
        }.joined(separator: " ")
        let definitions = names.filter { !ScenarioParser.predefinedVariables.contains($0) }.map { "let \($0) = .x\n" }
        let text = "can-pay\n" + definitions.joined() + line
        guard case .command(let again)? = (try? ScenarioParser.parse(text, vocabulary: .iapctl))?.last?.kind else {
            preconditionFailure("a command line quoted back does not parse: \(text)")
        }
        precondition(again == words, "a command line changed when quoted back: \(text)")
    }

    /// The argument parser with iapctl's real command table. The input is argv, one argument a
    /// line. Every mistake is one line of text; help pages render.
    package static func arguments(_ bytes: [UInt8]) {
        let arguments = bytes.split(separator: 0x0A, omittingEmptySubsequences: false).map {
            String(decoding: $0, as: UTF8.self)
        }
        do {
            let invocation = try Binder.parse(arguments: arguments, root: CommandTable.root)
            if invocation.wantsHelp { precondition(!invocation.helpText.isEmpty, "an empty help page") }
        } catch {
            let text = error.description
            precondition(!text.isEmpty && !text.contains("\n"), "a usage error is not one line: \(text)")
        }
    }

    /// `iapctl jws decode`: compact JWS parsing, the text rendering and verification against the
    /// built-in root. A token that parses re-encodes part for part to the text it came from
    /// (base64url decoding is canonical) and signs exactly its first two parts; verification
    /// always reports its five checks; every error is one line.
    package static func jws(_ bytes: [UInt8]) {
        let text = String(decoding: bytes, as: UTF8.self)
        let jws: CompactJWS
        do {
            jws = try CompactJWS(parsing: text)
        } catch {
            precondition(!error.description.isEmpty && !error.description.contains("\n"), "a JWS error is not one line")
            return
        }
        let parts = text.split(separator: ".", omittingEmptySubsequences: false).map { $0.filter { !$0.isWhitespace } }
        precondition(parts.count == 3, "a parsed JWS without three parts")
        precondition(Base64URL.encode(jws.signature) == parts[2], "the signature does not re-encode to its text")
        precondition(Base64URL.encode(jws.payloadBytes) == parts[1], "the payload does not re-encode to its text")
        precondition(
            String(decoding: jws.signingInput, as: UTF8.self) == parts[0] + "." + parts[1],
            "the signing input is not header.payload")
        precondition(!JWSText.lines(jws).isEmpty, "no text for a decoded JWS")
        let report = JWSVerifier.verify(jws, root: SigningIdentity.builtin.root)
        precondition(report.checks.count == 5, "verification did not report its five checks")
        for check in report.checks { precondition(!check.detail.contains("\n"), "a check's detail is not one line") }
        // With a time for payloads without signedDate, and the app checks Apple's verifier makes.
        let checked = JWSVerifier.verify(
            jws, root: SigningIdentity.builtin.root, at: VerificationTime(Timestamp(milliseconds: 1_767_225_600_000), .given),
            expecting: SignedAppExpectations(bundleID: "com.x.demo", environment: "Production", appAppleID: 1))
        precondition(checked.checks.count == 7, "verification with the app checks did not report seven checks")
        for check in checked.checks { precondition(!check.detail.contains("\n"), "a check's detail is not one line") }
    }

    /// Every fuzz target, by the name of its corpus directory under `Fixtures/fuzz/` and its
    /// executable under `Fuzz/Targets/`.
    package static let all: [(name: String, run: @Sendable ([UInt8]) -> Void)] = [
        ("catalog", catalogJSON),
        ("storekit", storeKitConfiguration),
        ("json", json),
        ("record", transactionRecord),
        ("scenario", scenario),
        ("arguments", arguments),
        ("http", http),
        ("jws", jws),
        ("receipt", receipt),
        ("pem", pem),
    ]
}
