/// The one-line rule for what iapctl says on stderr (`error: ...`, `warning: ...`, `note: ...`).
///
/// Messages are written as one line that names the bad value, so a value that holds a line break
/// or a terminal escape (`buy $'com.x\ncoin'`, a file name with a tab) would otherwise split the
/// message or drive the terminal. Every control character is shown as an escape instead, in the
/// way Swift and JSON write them: `\n`, `\r`, `\t`, else `\u{1B}`.
enum MessageLine {
    static func escaped(_ text: String) -> String {
        guard text.unicodeScalars.contains(where: isControl) else { return text }
        var out = String.UnicodeScalarView()
        for scalar in text.unicodeScalars {
            guard isControl(scalar) else {
                out.append(scalar)
                continue
            }
            switch scalar {
            case "\n": out.append(contentsOf: #"\n"#.unicodeScalars)
            case "\r": out.append(contentsOf: #"\r"#.unicodeScalars)
            case "\t": out.append(contentsOf: #"\t"#.unicodeScalars)
            default:
                let hex = String(scalar.value, radix: 16, uppercase: true)
                out.append(contentsOf: "\\u{\(hex)}".unicodeScalars)
            }
        }
        return String(out)
    }

    /// C0 and C1 controls, DEL, and the Unicode line and paragraph separators.
    private static func isControl(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0x00...0x1F, 0x7F...0x9F, 0x2028, 0x2029: return true
        default: return false
        }
    }
}

extension Console {
    /// Writes `text` as one line of stderr's kind (`error: ...`), control characters escaped.
    func message(_ text: String) { line(MessageLine.escaped(text)) }
}
