import IAPJSON

/// The public JSON shape of a product (SPEC section 4), localized for a storefront and locale.
public enum ProductJSON {
    public static func write(_ p: Product, storefront: Storefront, locale: String, into w: inout JSONWriter) {
        let text = p.localization(for: locale)
        let price = p.price(in: storefront.code) ?? .zero
        w.beginObject()
        w.key("productIdentifier")
        w.string(p.id.rawValue)
        w.key("type")
        w.string(p.type.rawValue)
        w.key("localizedTitle")
        w.string(text.title)
        w.key("localizedDescription")
        w.string(text.description)
        w.key("locale")
        w.string(text.locale)
        w.key("price")
        w.string(price.decimalString(fractionDigits: storefront.fractionDigits))
        w.key("currency")
        w.string(storefront.currency)
        w.key("localizedPrice")
        w.string(storefront.localizedPrice(price))
        w.key("storefront")
        w.string(storefront.code)
        w.key("subscriptionPeriod")
        w.optionalString(p.subscriptionPeriod?.iso8601)
        w.key("subscriptionGroupIdentifier")
        w.optionalString(p.subscriptionGroup)
        w.key("subscriptionGroupLevel")
        if let level = p.groupLevel { w.int(level) } else { w.null() }
        w.key("introductoryOffer")
        if let offer = p.introductoryOffer {
            w.beginObject()
            w.key("paymentMode")
            w.string(offer.paymentMode.rawValue)
            w.key("period")
            w.string(offer.period.iso8601)
            w.key("numberOfPeriods")
            w.int(offer.numberOfPeriods)
            w.key("price")
            let offerPrice = offer.price(in: storefront.code) ?? .zero
            w.string(offerPrice.decimalString(fractionDigits: storefront.fractionDigits))
            w.endObject()
        } else {
            w.null()
        }
        w.key("downloadable")
        w.bool(!p.hostedContent.isEmpty)
        w.key("hostedContent")
        w.beginArray()
        for c in p.hostedContent {
            w.beginObject()
            w.key("contentIdentifier")
            w.string(c.contentIdentifier)
            w.key("contentVersion")
            w.string(c.version)
            w.key("contentLength")
            w.int(c.contentLength)
            w.endObject()
        }
        w.endArray()
        w.key("familyShareable")
        w.bool(p.familyShareable)
        w.endObject()
    }
}
