/// One word of a scenario line after quoting is undone: literal text and `$NAME` references,
/// which are replaced by their values when the line runs.
///
/// `buy "$PRODUCT" --account 'Handsome Jon'` has three words after `buy`; the first is one
/// variable, the last one literal text with its space kept.
package struct ScenarioWord: Equatable, Sendable, CustomStringConvertible {
    package enum Part: Equatable, Sendable {
        case text(String)
        case variable(String)
    }

    /// Adjacent text is merged, so a literal word is exactly one `.text` part.
    package private(set) var parts: [Part]

    package init(_ parts: [Part] = []) {
        self.parts = []
        for part in parts { append(part) }
    }

    /// A word without variables.
    package static func literal(_ text: String) -> ScenarioWord { ScenarioWord([.text(text)]) }

    package mutating func append(_ part: Part) {
        if case .text(let new) = part, case .text(let old)? = parts.last {
            parts[parts.count - 1] = .text(old + new)
        } else if case .text(let new) = part, new.isEmpty {
            // An empty quoted string ('' or "") still makes a word, but adds no part.
        } else {
            parts.append(part)
        }
    }

    /// The text when the word has no variables; nil when it has.
    package var literal: String? {
        var text = ""
        for part in parts {
            guard case .text(let t) = part else { return nil }
            text += t
        }
        return text
    }

    /// The names of the variables the word uses, in order.
    package var variables: [String] {
        parts.compactMap { part in
            if case .variable(let name) = part { return name }
            return nil
        }
    }

    /// The word with each variable replaced by `value(name)`.
    ///
    /// - Throws: whatever `value` throws for a variable without a value.
    package func resolved<E: Error>(_ value: (String) throws(E) -> String) throws(E) -> String {
        // A literal word (most of them) is its one text part, shared rather than copied.
        if parts.count == 1, case .text(let t) = parts[0] { return t }
        var text = ""
        for part in parts {
            switch part {
            case .text(let t): text += t
            case .variable(let name): text += try value(name)
            }
        }
        return text
    }

    /// The word as it could be written back: variables as `${NAME}`.
    package var description: String {
        parts.map { part in
            switch part {
            case .text(let t): return t
            case .variable(let name): return "${\(name)}"
            }
        }.joined()
    }
}
