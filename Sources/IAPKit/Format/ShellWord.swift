/// A word as a POSIX shell reads it, for commands that messages suggest: unchanged when it holds
/// only characters no shell treats specially, else in single quotes (`'my store'`, and
/// `'it'\''s'` for a quote inside), so the suggested command can be pasted as it is.
package enum ShellWord {
    package static func quoted(_ word: String) -> String {
        let safe = word.unicodeScalars.allSatisfy { s in
            s.isASCII && (s.properties.isAlphabetic || s.properties.numericType != nil || "_./-+=:,@%".unicodeScalars.contains(s))
        }
        if safe && !word.isEmpty { return word }
        return "'" + word.replacing("'", with: #"'\''"#) + "'"
    }
}
