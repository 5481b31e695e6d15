import Testing

@testable import IAPJSON

/// The writer's string escaping skips eight bytes at a time where nothing needs escaping
/// (`JSONWriter.nextEscape`); these tests hold it to a byte-by-byte reference for every ASCII
/// byte and some multi-byte characters, at every position of a word and across word edges.
@Suite("JSON string escaping")
struct JSONEscapeTests {
    /// RFC 8259 section 7, written the way the writer does (`\n`, `\r`, `\t`, `\"`, `\\`
    /// short; other control bytes as `\u00XX`), one scalar at a time.
    static func reference(_ text: String) -> String {
        var out = "\""
        for scalar in text.unicodeScalars {
            switch scalar.value {
            case 0x22: out += "\\\""
            case 0x5C: out += "\\\\"
            case 0x0A: out += "\\n"
            case 0x0D: out += "\\r"
            case 0x09: out += "\\t"
            case 0..<0x20:
                let hex = Array("0123456789abcdef")
                out += "\\u00" + String(hex[Int(scalar.value >> 4)]) + String(hex[Int(scalar.value & 0xF)])
            default: out.unicodeScalars.append(scalar)
            }
        }
        return out + "\""
    }

    static func written(_ text: String) -> String {
        var w = JSONWriter()
        w.string(text)
        return w.string
    }

    @Test("every ASCII byte, and multi-byte characters, at each of the first 19 positions of a 21-byte string")
    func everyBytePosition() {
        var specials = (0..<128).map { String(UnicodeScalar(UInt8($0))) }
        specials += ["é", "€", "🪙", "\u{7F}", "\u{80}"]
        var checked = 0
        for special in specials {
            for position in 0..<19 {
                let text = String(repeating: "a", count: position) + special + String(repeating: "Z", count: 20 - position)
                #expect(Self.written(text) == Self.reference(text), "\(special.unicodeScalars.first!.value) at \(position)")
                checked += 1
            }
        }
        #expect(checked == 133 * 19)
    }

    @Test("two bytes to escape in one word, and strings shorter than a word")
    func denseAndShort() {
        for text in ["", "\"", "\\\"", "a\n\tb", "\u{1}\u{1f}\u{20}", "01234567\"", "0123456\\7", "ab\"cd\\ef\u{0}gh"] {
            #expect(Self.written(text) == Self.reference(text))
        }
    }

    @Test("nextEscape finds the first byte to escape after a start index, or the end")
    func nextEscape() {
        let bytes = Array("abcdefgh\"jklmnopqrstuvwxyz\\".utf8)
        bytes.withUnsafeBufferPointer { p in
            #expect(JSONWriter.nextEscape(p, from: 0) == 8)
            #expect(JSONWriter.nextEscape(p, from: 9) == 26)
            #expect(JSONWriter.nextEscape(p, from: 27) == 27)
        }
    }
}
