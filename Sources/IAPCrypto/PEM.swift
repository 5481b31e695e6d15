/// PEM text (RFC 7468): base64 DER between BEGIN and END lines, the form certificates and keys
/// are exchanged in (`Fixtures/signing/*.pem`, `openssl` output). Several blocks may follow one
/// another, and text outside blocks (openssl's "Bag Attributes", comments) is ignored.
public enum PEM {
    /// Every block in `text`, in order.
    ///
    /// - Throws: `PEMError` when there is no block, a block is not closed, the END label differs,
    ///   the block has RFC 1421 headers (encrypted keys), or its body is not base64.
    public static func decode(_ text: String) throws(PEMError) -> [PEMBlock] {
        let bytes = Array(text.utf8)
        var lines: [(offset: Int, text: [UInt8])] = []
        var start = 0
        for i in 0...bytes.count where i == bytes.count || bytes[i] == 0x0A {
            var line = Array(bytes[start..<i])
            while let last = line.last, last == 0x0D || last == 0x20 || last == 0x09 { line.removeLast() }
            lines.append((start, line))
            start = i + 1
        }
        let begin = Array("-----BEGIN ".utf8)
        let end = Array("-----END ".utf8)
        let dashes = Array("-----".utf8)
        func label(_ line: [UInt8], prefix: [UInt8]) -> String? {
            guard line.count >= prefix.count + dashes.count, line.starts(with: prefix), line.suffix(5).elementsEqual(dashes)
            else { return nil }
            return String(decoding: line[prefix.count..<(line.count - dashes.count)], as: UTF8.self)
        }
        var blocks: [PEMBlock] = []
        var index = 0
        while index < lines.count {
            let (beginOffset, beginLine) = lines[index]
            index += 1
            guard let name = label(beginLine, prefix: begin) else { continue }
            var body: [UInt8] = []
            var bodyOffset: Int?
            var closed = false
            while index < lines.count {
                let (offset, line) = lines[index]
                index += 1
                if let endName = label(line, prefix: end) {
                    guard endName == name else {
                        throw PEMError(offset: offset, expected: "'-----END \(name)-----' to match the BEGIN line")
                    }
                    closed = true
                    break
                }
                if line.starts(with: begin) {
                    throw PEMError(offset: offset, expected: "'-----END \(name)-----' before the next BEGIN line")
                }
                if line.contains(UInt8(ascii: ":")) {
                    throw PEMError(offset: offset, expected: "an unencrypted block without headers")
                }
                if bodyOffset == nil { bodyOffset = offset }
                body += line
            }
            guard closed else {
                throw PEMError(offset: bytes.count, expected: "a '-----END \(name)-----' line")
            }
            guard let decoded = Base64.decode(String(decoding: body, as: UTF8.self)) else {
                throw PEMError(offset: bodyOffset ?? beginOffset, expected: "base64 text in the \(name) block")
            }
            blocks.append(PEMBlock(label: name, bytes: decoded, offset: beginOffset))
        }
        guard !blocks.isEmpty else { throw PEMError(offset: 0, expected: "a '-----BEGIN ...-----' line") }
        return blocks
    }

    /// The first block whose label is one of `labels`.
    public static func decode(_ text: String, labels: [String]) throws(PEMError) -> PEMBlock {
        let blocks = try decode(text)
        guard let block = blocks.first(where: { labels.contains($0.label) }) else {
            let wanted = labels.map { "'\($0)'" }.joined(separator: " or ")
            let found = blocks.map { "'\($0.label)'" }.joined(separator: ", ")
            throw PEMError(offset: blocks[0].offset, expected: "a \(wanted) block (found \(found))")
        }
        return block
    }

    /// One block: BEGIN line, base64 in 64-character lines, END line, each ending in a newline.
    public static func encode(_ bytes: [UInt8], label: String) -> String {
        let base64 = Array(Base64.encode(bytes).utf8)
        var text = "-----BEGIN \(label)-----\n"
        var i = 0
        while i < base64.count {
            text += String(decoding: base64[i..<min(i + 64, base64.count)], as: UTF8.self) + "\n"
            i += 64
        }
        return text + "-----END \(label)-----\n"
    }

    /// Several blocks one after another (a certificate chain file).
    public static func encode(_ blocks: [PEMBlock]) -> String {
        blocks.map { encode($0.bytes, label: $0.label) }.joined()
    }
}
