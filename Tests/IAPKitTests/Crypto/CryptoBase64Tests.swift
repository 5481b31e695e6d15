import Testing

@testable import IAPCrypto
@testable import IAPKit

@Suite("Crypto: base64 and base64url")
struct CryptoBase64Tests {
    /// RFC 4648 section 10.
    static let rfc4648: [(String, String)] = [
        ("", ""), ("f", "Zg=="), ("fo", "Zm8="), ("foo", "Zm9v"), ("foob", "Zm9vYg=="), ("fooba", "Zm9vYmE="),
        ("foobar", "Zm9vYmFy"),
    ]

    @Test(arguments: rfc4648)
    func vectors(_ plain: String, _ encoded: String) {
        #expect(Base64.encode(Array(plain.utf8)) == encoded)
        #expect(Base64.decode(encoded) == Array(plain.utf8))
        let unpadded = encoded.replacingOccurrences(of: "=", with: "")
        #expect(Base64URL.encode(Array(plain.utf8)) == unpadded)
        #expect(Base64URL.decode(unpadded) == Array(plain.utf8))
    }

    @Test func whitespaceIsIgnored() {
        #expect(Base64.decode(" Zm9v\nYmFy\r\n\t") == Array("foobar".utf8))
        #expect(Base64.decode("Zm9vYg=\n=") == Array("foob".utf8))
    }

    @Test(arguments: [
        "Zm9vYg", "Zm9vYg=", "Zm9vYg===", "Zm9v=YmFy", "Zm9vY", "Zm9v!", "Zm9-", "Zm9_", "Zh==", "Zm9=", "====",
        "Zg==Zg==", "\u{00e9}",
    ])
    func rejected(_ text: String) {
        #expect(Base64.decode(text) == nil)
    }

    @Test(arguments: ["Zg==", "Zm9v+", "Zm9v/", " Zg", "Zh", "Zm9", "a"])
    func urlRejected(_ text: String) {
        #expect(Base64URL.decode(text) == nil)
    }

    @Test func urlAlphabet() {
        #expect(Base64URL.encode([0xfb, 0xff, 0xbf]) == "-_-_")
        #expect(Base64.encode([0xfb, 0xff, 0xbf]) == "+/+/")
        #expect(Base64URL.decode("-_-_") == [0xfb, 0xff, 0xbf])
    }

    @Test func allByteValuesRoundTrip() {
        let bytes = (0..<256).map { UInt8($0) }
        for n in 0..<10 {
            let slice = Array(bytes[n...])
            #expect(Base64.decode(Base64.encode(slice)) == slice)
            #expect(Base64URL.decode(Base64URL.encode(slice)) == slice)
        }
    }
}
