/// Why a catalog could not be loaded: the file, the product (when one is to blame), the key path
/// and what to change. The CLI exits 65 (bad data) with this one line.
public struct CatalogError: Error, Equatable, Sendable, CustomStringConvertible {
    public let file: String
    public let product: String?
    public let keyPath: String
    public let problem: String

    public init(file: String, product: String? = nil, keyPath: String, problem: String) {
        self.file = file
        self.product = product
        self.keyPath = keyPath
        self.problem = problem
    }

    public var description: String {
        var text = "catalog \(file)"
        if let product { text += ", product '\(product)'" }
        if !keyPath.isEmpty { text += ", at \(keyPath)" }
        return text + ": " + problem
    }
}
