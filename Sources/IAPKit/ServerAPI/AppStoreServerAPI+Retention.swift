import IAPHTTP
import IAPJSON

/// Retention Messaging (docs/server-api.md, section 2.14) as a store-backed service: images
/// (PNG, no transparency, Apple's sizes), messages, default messages per product and locale, and
/// the realtime URL. Each upload, configuration and deletion is one `Command.serverAPI(.retention)`
/// (event `retention...`); nothing is reviewed, so images and messages are APPROVED at once.
extension AppStoreServerAPI {
    /// A UUID path parameter in canonical lowercase form, or nil.
    static func uuid(_ text: String?) -> String? { AppAccountToken.token(for: UserID(text ?? "")) }

    static func badIdentifier(_ name: String, _ p: PathParameters) -> HTTPResponse {
        AppStoreAPIError.generalBadRequest.response(
            "\(name) '\(HTTPRequestParser.printable(p[name] ?? ""))' is not a UUID such as 7e3fb20b-4cdb-47cc-936d-99d65f608138.")
    }

    /// Checks the app (the router authenticated the request), and applies `change` when `check` finds nothing wrong.
    func retentionChange(
        _ claims: BearerTokenClaims, _ check: @escaping (StoreSession, RetentionMessaging) throws -> HTTPResponse?,
        change: @escaping (RetentionMessaging) -> RetentionChange
    ) -> HTTPResponse {
        return writing { session in
            if let refusal = Self.wrongApp(claims, session) { return refusal.response }
            let config = session.state.retention ?? RetentionMessaging()
            if let refusal = try check(session, config) { return refusal }
            try session.apply(.serverAPI(.retention(change(config))))
            return HTTPResponse(status: .ok)
        }
    }

    /// Checks the app (the router authenticated the request), and answers from the configuration.
    func retentionRead(_ claims: BearerTokenClaims, _ answer: @escaping (RetentionMessaging) -> HTTPResponse) -> HTTPResponse {
        return reading { session in
            if let refusal = Self.wrongApp(claims, session) { return refusal.response }
            return answer(session.state.retention ?? RetentionMessaging())
        }
    }

    // MARK: - Images

    func uploadImage(_ request: HTTPRequest, _ claims: BearerTokenClaims, _ p: PathParameters) -> HTTPResponse {
        guard let id = Self.uuid(p["imageIdentifier"]) else { return Self.badIdentifier("imageIdentifier", p) }
        var size = "FULL_SIZE"
        for item in request.queryItems() ?? [] where item.name == "imageSize" { size = item.value }
        guard size == "FULL_SIZE" || size == "BULLET_POINT" else {
            return AppStoreAPIError.badRequestImageSize.response(
                "imageSize '\(HTTPRequestParser.printable(size))'; use FULL_SIZE or BULLET_POINT.")
        }
        let image: PNGHeader
        switch PNGHeader.read(request.body) {
        case .failure(let why): return AppStoreAPIError.invalidImage.response(why.description)
        case .success(let header): image = header
        }
        if image.hasTransparency {
            return AppStoreAPIError.invalidImage.response("The PNG has transparency; retention images must be opaque.")
        }
        let fits = size == "FULL_SIZE" ? image.width == 3840 && (160...2160).contains(image.height) : image.width == image.height
        guard fits else {
            return AppStoreAPIError.badRequestImageSize.response(
                "The PNG is \(image.width)x\(image.height); \(size == "FULL_SIZE" ? "FULL_SIZE is 3840 wide and 160 to 2160 high" : "BULLET_POINT images are square")."
            )
        }
        return retentionChange(
            claims,
            { _, config in
                config.images[id] == nil
                    ? nil
                    : AppStoreAPIError.imageAlreadyExists.response(
                        "Image \(id) exists; delete it first or use another identifier.")
            }, change: { _ in .imageUploaded(id: id, size: size) })
    }

    func deleteImage(_ request: HTTPRequest, _ claims: BearerTokenClaims, _ p: PathParameters) -> HTTPResponse {
        guard let id = Self.uuid(p["imageIdentifier"]) else { return Self.badIdentifier("imageIdentifier", p) }
        return retentionChange(
            claims,
            { _, config in
                if config.images[id] == nil { return AppStoreAPIError.imageNotFound.response("No image \(id).") }
                if let user = config.messages.keys.sorted().first(where: { config.messages[$0]!.imageIDs.contains(id) }) {
                    return AppStoreAPIError.imageInUse.response("Message \(user) uses image \(id); delete the message first.")
                }
                return nil
            }, change: { _ in .imageDeleted(id: id) })
    }

    func imageList(_ request: HTTPRequest, _ claims: BearerTokenClaims) -> HTTPResponse {
        retentionRead(claims) { config in
            .json { w in
                w.beginObject()
                w.key("imageIdentifiers")
                w.beginArray()
                for id in config.images.keys.sorted() {
                    w.beginObject()
                    w.key("imageIdentifier")
                    w.string(id)
                    w.key("imageState")
                    w.string("APPROVED")
                    w.endObject()
                }
                w.endArray()
                w.endObject()
            }
        }
    }

    // MARK: - Messages

    func uploadMessage(_ request: HTTPRequest, _ claims: BearerTokenClaims, _ p: PathParameters) -> HTTPResponse {
        guard let id = Self.uuid(p["messageIdentifier"]) else { return Self.badIdentifier("messageIdentifier", p) }
        guard let body = Self.jsonObject(request) else { return Self.notJSONObject() }
        func length(_ v: JSONValue?) -> Int { v?.stringValue?.count ?? 0 }
        if length(body["header"]) > 66 { return AppStoreAPIError.headerTooLong.response("The header has at most 66 characters.") }
        if length(body["body"]) > 144 { return AppStoreAPIError.bodyTooLong.response("The body has at most 144 characters.") }
        var images: [String] = []
        let image = body["image"].flatMap { $0 == .null ? nil : $0 }
        if let image {
            if length(image["altText"]) > 150 {
                return AppStoreAPIError.altTextTooLong.response("Alternative text has at most 150 characters.")
            }
            if let ref = Self.uuid(image["imageIdentifier"]?.stringValue) { images.append(ref) }
        }
        if body["headerPosition"]?.stringValue == "ABOVE_IMAGE" && image == nil {
            return AppStoreAPIError.badRequestAboveImageRequiresAnImage.response("headerPosition ABOVE_IMAGE needs an image.")
        }
        let bullets = body["bulletPoints"]?.arrayValue ?? []
        if bullets.count > 5 { return AppStoreAPIError.badRequestTooManyBulletPoints.response("At most 5 bullet points.") }
        for bullet in bullets {
            if length(bullet["text"]) > 66 {
                return AppStoreAPIError.badRequestBulletPointTextTooLong.response("A bullet point has at most 66 characters.")
            }
            if length(bullet["altText"]) > 150 {
                return AppStoreAPIError.altTextTooLong.response("Alternative text has at most 150 characters.")
            }
            if let ref = Self.uuid(bullet["imageIdentifier"]?.stringValue), !images.contains(ref) { images.append(ref) }
        }
        let text = body.serialized()
        return retentionChange(
            claims,
            { _, config in
                if config.messages[id] != nil {
                    return AppStoreAPIError.messageAlreadyExists.response(
                        "Message \(id) exists; delete it first or use another identifier.")
                }
                if let missing = images.first(where: { config.images[$0] == nil }) {
                    return AppStoreAPIError.imageNotFound.response("The message uses image \(missing), which was not uploaded.")
                }
                return nil
            }, change: { _ in .messageUploaded(id: id, body: text, imageIDs: images) })
    }

    func deleteMessage(_ request: HTTPRequest, _ claims: BearerTokenClaims, _ p: PathParameters) -> HTTPResponse {
        guard let id = Self.uuid(p["messageIdentifier"]) else { return Self.badIdentifier("messageIdentifier", p) }
        return retentionChange(
            claims,
            { _, config in config.messages[id] == nil ? AppStoreAPIError.messageNotFound.response("No message \(id).") : nil },
            change: { _ in .messageDeleted(id: id) })
    }

    func messageList(_ request: HTTPRequest, _ claims: BearerTokenClaims) -> HTTPResponse {
        retentionRead(claims) { config in
            .json { w in
                w.beginObject()
                w.key("messageIdentifiers")
                w.beginArray()
                for id in config.messages.keys.sorted() {
                    w.beginObject()
                    w.key("messageIdentifier")
                    w.string(id)
                    w.key("messageState")
                    w.string("APPROVED")
                    w.endObject()
                }
                w.endArray()
                w.endObject()
            }
        }
    }

    // MARK: - Default messages

    /// A BCP 47-style locale as Apple takes it: a 2- or 3-letter lowercase language, then
    /// optionally `-` or `_` and a 4-letter script, a 2-letter uppercase region or 3 digits.
    static func isLocale(_ text: String) -> Bool {
        let parts = text.split(omittingEmptySubsequences: false) { $0 == "-" || $0 == "_" }
        guard let language = parts.first, (2...3).contains(language.count), language.allSatisfy({ $0.isASCII && $0.isLowercase })
        else { return false }
        return parts.dropFirst().allSatisfy { part in
            (part.count == 2 && part.allSatisfy { $0.isASCII && $0.isUppercase })
                || (part.count == 4 && part.allSatisfy { $0.isASCII && $0.isLetter })
                || (part.count == 3 && part.allSatisfy { $0.isASCII && $0.isNumber })
        } && parts.count <= 3
    }

    func defaultMessage(_ request: HTTPRequest, _ claims: BearerTokenClaims, _ p: PathParameters, method: String) -> HTTPResponse
    {
        let product = p["productId"] ?? ""
        let locale = p["locale"] ?? ""
        guard Self.isLocale(locale) else {
            return AppStoreAPIError.invalidLocale.response(
                "'\(HTTPRequestParser.printable(locale))' is not a locale such as en-US.")
        }
        let key = RetentionMessaging.defaultKey(product: product, locale: locale)
        switch method {
        case "GET":
            return retentionRead(claims) { config in
                guard let message = config.defaults[key] else {
                    return AppStoreAPIError.defaultMessageNotFound.response("No default message for \(product) in \(locale).")
                }
                return .json { w in
                    w.beginObject()
                    w.key("messageIdentifier")
                    w.string(message)
                    w.endObject()
                }
            }
        case "DELETE":
            return retentionChange(
                claims,
                { _, config in
                    config.defaults[key] == nil
                        ? AppStoreAPIError.defaultMessageNotFound.response("No default message for \(product) in \(locale).")
                        : nil
                }, change: { _ in .defaultDeleted(product: product, locale: locale) })
        default:
            guard let body = Self.jsonObject(request) else { return Self.notJSONObject() }
            guard let message = Self.uuid(body["messageIdentifier"]?.stringValue) else {
                return AppStoreAPIError.generalBadRequest.response("Give messageIdentifier, the UUID of an uploaded message.")
            }
            return retentionChange(
                claims,
                { session, config in
                    if session.catalog[ProductID(product)] == nil {
                        return AppStoreAPIError.invalidProductId.response(
                            "'\(HTTPRequestParser.printable(product))' is not in the catalog.")
                    }
                    return config.messages[message] == nil
                        ? AppStoreAPIError.messageNotFound.response("No message \(message).") : nil
                }, change: { _ in .defaultConfigured(product: product, locale: locale, message: message) })
        }
    }

    // MARK: - Realtime URL

    /// The realtime URL iapctl calls must be plain HTTP on loopback, like `--webhook`: a test
    /// server does not call out to other machines.
    static func isLoopbackHTTP(_ url: String) -> Bool {
        guard url.utf8.count <= 256 else { return false }
        return [
            "http://127.0.0.1:", "http://127.0.0.1/", "http://localhost:", "http://localhost/", "http://[::1]:", "http://[::1]/",
        ]
        .contains { url.hasPrefix($0) }
    }

    func realtimeURL(_ request: HTTPRequest, _ claims: BearerTokenClaims, method: String) -> HTTPResponse {
        switch method {
        case "GET":
            return retentionRead(claims) { config in
                guard let url = config.realtimeURL else {
                    return AppStoreAPIError.realtimeUrlNotFound.response("No realtime URL is configured.")
                }
                return .json { w in
                    w.beginObject()
                    w.key("realtimeURL")
                    w.string(url)
                    w.endObject()
                }
            }
        case "DELETE":
            return retentionChange(
                claims,
                { _, config in
                    config.realtimeURL == nil
                        ? AppStoreAPIError.realtimeUrlNotFound.response("No realtime URL is configured.") : nil
                }, change: { _ in .realtimeURLDeleted })
        default:
            guard let body = Self.jsonObject(request) else { return Self.notJSONObject() }
            guard let url = body["realtimeURL"]?.stringValue, Self.isLoopbackHTTP(url) else {
                return AppStoreAPIError.badRequestRealtimeUrl.response(
                    "realtimeURL must be http:// on a loopback address (127.0.0.1, ::1, localhost), at most 256 characters: iapctl calls it."
                )
            }
            return retentionChange(claims, { _, _ in nil }, change: { _ in .realtimeURLConfigured(url) })
        }
    }
}

/// The header of a PNG file (PNG specification, sections 5.2 and 11.2.2): its size and whether
/// it can be transparent (an alpha channel, colour types 4 and 6, or a `tRNS` chunk).
struct PNGHeader {
    let width: Int
    let height: Int
    let hasTransparency: Bool

    struct Problem: Error, CustomStringConvertible {
        let description: String
    }

    static func read(_ bytes: [UInt8]) -> Result<PNGHeader, Problem> {
        let signature: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]
        guard bytes.count >= 33, Array(bytes[0..<8]) == signature else {
            return .failure(Problem(description: "The body is not a PNG (it must start with the PNG signature)."))
        }
        func u32(_ at: Int) -> Int { bytes[at..<at + 4].reduce(0) { $0 << 8 | Int($1) } }
        guard Array(bytes[12..<16]) == Array("IHDR".utf8), u32(8) == 13 else {
            return .failure(Problem(description: "The PNG has no IHDR chunk first."))
        }
        let width = u32(16)
        let height = u32(20)
        let colorType = bytes[25]
        var transparency = colorType == 4 || colorType == 6
        var at = 8
        while at + 8 <= bytes.count {
            let length = u32(at)
            if Array(bytes[at + 4..<at + 8]) == Array("tRNS".utf8) { transparency = true }
            at += 12 + length
        }
        return .success(PNGHeader(width: width, height: height, hasTransparency: transparency))
    }
}
