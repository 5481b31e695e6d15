/// The recursive-descent TLV reader behind `ASN1Element`. Every read is bounds-checked against
/// the end of the enclosing element, lengths are checked before any arithmetic can overflow, and
/// nesting is capped, so hostile input costs an error value, never a crash or a deep stack.
struct ASN1Parser {
    /// The deepest nesting any caller may ask for: recursion stays far from the stack's limit.
    static let depthCeiling = 1000

    let input: [UInt8]
    let rules: ASN1Element.Rules
    let maxDepth: Int

    init(input: [UInt8], rules: ASN1Element.Rules, maxDepth: Int) {
        self.input = input
        self.rules = rules
        self.maxDepth = max(0, min(maxDepth, Self.depthCeiling))
    }

    func parseWhole() throws(ASN1Error) -> ASN1Element {
        let element = try parse(at: 0, limit: input.count, depth: 0)
        guard element.endOffset == input.count else {
            throw ASN1Error(offset: element.endOffset, expected: "the end of the input after the outermost element")
        }
        return element
    }

    private func parse(at start: Int, limit: Int, depth: Int) throws(ASN1Error) -> ASN1Element {
        guard depth <= maxDepth else { throw ASN1Error(offset: start, expected: "nesting at most \(maxDepth) levels deep") }
        var i = start
        guard i < limit else { throw ASN1Error(offset: i, expected: "an identifier byte") }
        let first = input[i]
        i += 1
        let tagClass = ASN1Tag.TagClass(rawValue: first >> 6)!
        let constructed = first & 0x20 != 0
        var number = Int(first & 0x1F)
        if number == 31 {
            number = 0
            var count = 0
            while true {
                guard i < limit else { throw ASN1Error(offset: i, expected: "another tag number byte") }
                let b = input[i]
                if count == 0 && b == 0x80 { throw ASN1Error(offset: i, expected: "a tag number without leading zero bits") }
                guard count < 4 else { throw ASN1Error(offset: i, expected: "a tag number below 2^28") }
                number = number << 7 | Int(b & 0x7F)
                i += 1
                count += 1
                if b & 0x80 == 0 { break }
            }
            guard number >= 31 else { throw ASN1Error(offset: start + 1, expected: "the short form for tag numbers below 31") }
        }
        let tag = ASN1Tag(tagClass, number, constructed: constructed)
        if tagClass == .universal && number == 0 {
            throw ASN1Error(offset: start, expected: "an element (end-of-contents is only valid inside an indefinite length)")
        }
        try checkForm(tag, at: start)

        let lengthOffset = i
        guard i < limit else { throw ASN1Error(offset: i, expected: "a length byte") }
        let lengthByte = input[i]
        i += 1
        if lengthByte == 0x80 {
            guard rules == .ber else { throw ASN1Error(offset: lengthOffset, expected: "a definite length (DER)") }
            guard constructed else {
                throw ASN1Error(offset: lengthOffset, expected: "a definite length for a primitive element")
            }
            var children: [ASN1Element] = []
            let contentStart = i
            while true {
                guard i + 1 < limit else { throw ASN1Error(offset: min(i, limit), expected: "an end-of-contents marker") }
                if input[i] == 0 && input[i + 1] == 0 {
                    let element = ASN1Element(
                        tag: tag, offset: start, headerLength: contentStart - start, isIndefiniteLength: true,
                        children: children, input: input, contentRange: contentStart..<i, endOffset: i + 2)
                    try checkSegments(element)
                    return element
                }
                if input[i] == 0 {
                    throw ASN1Error(offset: i + 1, expected: "a zero length in the end-of-contents marker")
                }
                let child = try parse(at: i, limit: limit, depth: depth + 1)
                children.append(child)
                i = child.endOffset
            }
        }
        var length: Int
        if lengthByte < 0x80 {
            length = Int(lengthByte)
        } else {
            let count = Int(lengthByte & 0x7F)
            guard count != 0x7F else { throw ASN1Error(offset: lengthOffset, expected: "a length byte other than 0xFF") }
            guard count <= 8 else { throw ASN1Error(offset: lengthOffset, expected: "a length of at most 8 length bytes") }
            guard i + count <= limit else { throw ASN1Error(offset: limit, expected: "\(count) length bytes") }
            length = 0
            for k in 0..<count {
                guard length >> 55 == 0 else { throw ASN1Error(offset: i + k, expected: "a length that fits in memory") }
                length = length << 8 | Int(input[i + k])
            }
            if rules == .der {
                guard input[i] != 0, length >= 0x80 else {
                    throw ASN1Error(offset: lengthOffset, expected: "the shortest length encoding (DER)")
                }
            }
            i += count
        }
        guard length >= 0, length <= limit - i else {
            throw ASN1Error(offset: lengthOffset, expected: "a length of at most \(limit - i) bytes (got \(length))")
        }
        let end = i + length
        var children: [ASN1Element] = []
        if constructed {
            var j = i
            while j < end {
                let child = try parse(at: j, limit: end, depth: depth + 1)
                children.append(child)
                j = child.endOffset
            }
        }
        let element = ASN1Element(
            tag: tag, offset: start, headerLength: i - start, isIndefiniteLength: false, children: children,
            input: input, contentRange: i..<end, endOffset: end)
        if constructed { try checkSegments(element) }
        return element
    }

    /// Universal types whose form X.690 fixes: SEQUENCE and SET are constructed; BOOLEAN,
    /// INTEGER, NULL and OBJECT IDENTIFIER are primitive; DER also forbids segmented strings.
    private func checkForm(_ tag: ASN1Tag, at offset: Int) throws(ASN1Error) {
        guard tag.tagClass == .universal else { return }
        switch tag.number {
        case 16, 17:
            guard tag.isConstructed else { throw ASN1Error(offset: offset, expected: "a constructed \(tag.name)") }
        case 1, 2, 5, 6, 9, 10, 13, 23, 24:
            guard !tag.isConstructed else { throw ASN1Error(offset: offset, expected: "a primitive \(tag.name)") }
        default:
            if tag.isConstructed && tag.isSegmentableString && rules == .der {
                throw ASN1Error(offset: offset, expected: "a primitive string (DER)")
            }
        }
    }

    /// A constructed BER string may only hold segments of its own type.
    private func checkSegments(_ element: ASN1Element) throws(ASN1Error) {
        guard element.tag.isSegmentableString else { return }
        for child in element.children where child.tag.tagClass != .universal || child.tag.number != element.tag.number {
            throw ASN1Error(offset: child.offset, expected: "a segment of the same string type as its parent")
        }
    }
}
