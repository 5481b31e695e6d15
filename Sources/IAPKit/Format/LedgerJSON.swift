import IAPJSON

/// The JSON shape of one product's ledger entry (`iapctl ledger`, `consume`, `owned`).
public enum LedgerJSON {
    /// `balance` is null for products that are not consumables.
    public static func write(_ product: Product, _ entry: LedgerEntry, into w: inout JSONWriter) {
        w.beginObject()
        w.key("productIdentifier")
        w.string(product.id.rawValue)
        w.key("productType")
        w.string(product.type.rawValue)
        w.key("purchases")
        w.int(entry.purchases)
        w.key("units")
        w.int(entry.units)
        w.key("consumed")
        w.int(entry.consumed)
        w.key("balance")
        if product.type == .consumable { w.int(entry.balance) } else { w.null() }
        w.key("owned")
        w.bool(entry.isOwned(product.type))
        w.endObject()
    }
}
