extension String {
    /// The string cut or padded with spaces to exactly `width` characters (Foundation's
    /// `padding(toLength:withPad:startingAt:)` for a space pad, without Foundation).
    func padded(to width: Int) -> String {
        count >= width ? String(prefix(width)) : self + String(repeating: " ", count: width - count)
    }
}
