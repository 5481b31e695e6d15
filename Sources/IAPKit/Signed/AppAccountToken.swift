/// StoreKit 2's `appAccountToken`: "the UUID that you generate to associate a customer's In-App
/// Purchase with its resulting App Store transaction" (App Store Server API, appAccountToken).
/// StoreKit 1's `applicationUsername` is any string, but Apple stores it as the token only when
/// it is a UUID: "When this value is a UUID, the App Store server stores it as an
/// appAccountToken", returned in `JWSTransactionDecodedPayload` (StoreKit,
/// SKMutablePayment.applicationUsername), and in the renewal information too (App Store Server
/// API, appAccountToken). Other user ids (DYFStoreKit's SHA-256 of the account name, say) are left
/// out of signed data, as Apple does.
public enum AppAccountToken {
    /// The token for a user id: its canonical lowercase UUID form, or nil when it is not a UUID
    /// (8-4-4-4-12 hex digits, either case).
    public static func token(for user: UserID?) -> String? {
        guard let text = user?.rawValue else { return nil }
        let bytes = Array(text.utf8)
        guard bytes.count == 36 else { return nil }
        for (i, b) in bytes.enumerated() {
            if i == 8 || i == 13 || i == 18 || i == 23 {
                guard b == UInt8(ascii: "-") else { return nil }
            } else {
                let isHex = (0x30...0x39).contains(b) || (0x41...0x46).contains(b) || (0x61...0x66).contains(b)
                guard isHex else { return nil }
            }
        }
        return text.lowercased()
    }
}
