/// A promotional offer as StoreKit 1's `SKPaymentDiscount` carries it (StoreKit 2's
/// `promotionalOffer(offerID:keyID:nonce:signature:timestamp:)`): the offer, the key that signed
/// it, the nonce, the timestamp and the signature, each as the app passed it. Any part may be
/// missing; that is StoreKit's `missingOfferParams` when the purchase is checked.
public struct PaymentDiscount: Sendable, Hashable {
    /// `identifier`: the promotional offer identifier.
    public let offerID: OfferID
    /// `keyIdentifier`: the subscription offer key that made the signature.
    public let keyID: String?
    public let nonce: OfferNonce?
    /// `timestamp`: when the server signed, in milliseconds since 1970.
    public let timestamp: Int64?
    /// `signature`: base64 of the DER-encoded ECDSA signature.
    public let signature: String?

    public init(offerID: OfferID, keyID: String?, nonce: OfferNonce?, timestamp: Int64?, signature: String?) {
        self.offerID = offerID
        self.keyID = keyID
        self.nonce = nonce
        self.timestamp = timestamp
        self.signature = signature
    }

    /// The parts the app did not give, in `SKPaymentDiscount`'s order.
    public var missingParts: [String] {
        var missing: [String] = []
        if keyID?.isEmpty ?? true { missing.append("a key id (--key-id)") }
        if nonce == nil { missing.append("a nonce (--nonce)") }
        if timestamp == nil { missing.append("a timestamp (--timestamp)") }
        if signature?.isEmpty ?? true { missing.append("a signature (--signature)") }
        return missing
    }
}
