/// An affine P-256 point (never infinity).
struct P256Affine: Equatable, Sendable {
    var x: P256FieldElement
    var y: P256FieldElement

    /// Whether (x, y) satisfies y^2 = x^3 - 3x + b.
    var isOnCurve: Bool {
        let x3 = x.squared * x
        let rhs = x3 - x.doubled - x + P256FieldElement.b
        return y.squared == rhs
    }
}
