import Foundation
import IAPCrypto
import Testing

@testable import IAPKit

/// Reading subscription offer keys in every form a developer has one: the App Store Connect
/// `.p8` (PKCS#8), a SEC1 `EC PRIVATE KEY` (what `openssl ec` writes), the public half, and
/// Xcode's `subscriptionOffersKeyPair.privateKey` (base64 PKCS#8 without armor). Each form of
/// the same key gives the same public key, checked against `openssl pkey -pubout`.
@Suite("Offers: subscription offer keys")
struct SubscriptionOfferKeyTests {
    typealias F = OfferFixtures

    static func openssl(_ arguments: [String], stdin: String) throws -> String {
        let process = Process()
        let dirs = (ProcessInfo.processInfo.environment["PATH"] ?? "").split(separator: ":").map(String.init) + ["/usr/bin"]
        guard let path = dirs.map({ $0 + "/openssl" }).first(where: { FileManager.default.isExecutableFile(atPath: $0) }) else {
            throw AppleOfferSigner.Failure(description: "openssl is not installed")
        }
        process.executableURL = URL(fileURLWithPath: path)
        process.arguments = arguments
        let out = Pipe()
        let input = Pipe()
        process.standardOutput = out
        process.standardInput = input
        process.standardError = FileHandle.nullDevice
        try process.run()
        input.fileHandleForWriting.write(Data(stdin.utf8))
        try input.fileHandleForWriting.close()
        let data = out.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return String(decoding: data, as: UTF8.self)
    }

    @Test("the .p8, its SEC1 form, its public half and Xcode's base64 give openssl's public key")
    func everyForm() throws {
        let publicPEM = try Self.openssl(["pkey", "-pubout"], stdin: F.keyPEM)
        let sec1 = try Self.openssl(["ec"], stdin: F.keyPEM)
        #expect(sec1.hasPrefix("-----BEGIN EC PRIVATE KEY-----"))
        let expected = try P256.PublicKey(pemRepresentation: publicPEM)
        let p8 = try SubscriptionOfferKey.read(pem: F.keyPEM, id: "TESTKEY001", name: "SubscriptionKey_TESTKEY001.p8")
        #expect(p8.key == SubscriptionOfferKey(id: "TESTKEY001", publicKey: expected))
        #expect(p8.source == .privateKey)
        #expect(try SubscriptionOfferKey.read(pem: sec1, id: "TESTKEY001", name: "sec1.pem").key == p8.key)
        let pub = try SubscriptionOfferKey.read(pem: publicPEM, id: "TESTKEY001", name: "key.pub")
        #expect(pub.key == p8.key)
        #expect(pub.source == .publicKey)
        let base64 = F.keyPEM.split(separator: "\n").filter { !$0.hasPrefix("-----") }.joined()
        #expect(try SubscriptionOfferKey.read(xcodePrivateKey: base64, id: "TESTKEY001") == p8.key)
    }

    @Test("what is not a P-256 key, and ids that cannot name one, are refused with the fix")
    func refused() {
        #expect(throws: OfferKeyError.notAKey("notes.txt")) {
            try SubscriptionOfferKey.read(pem: "hello", id: "K", name: "notes.txt")
        }
        #expect(
            OfferKeyError.notAKey("notes.txt").description
                == "notes.txt: not a P-256 key; give the App Store Connect in-app purchase key (.p8, 'BEGIN PRIVATE KEY') or its public half ('BEGIN PUBLIC KEY')"
        )
        for id in ["", "has space", String(repeating: "K", count: 65), "tab\there"] {
            #expect(throws: OfferKeyError.badID(id)) { try SubscriptionOfferKey.read(pem: F.keyPEM, id: id, name: "k.p8") }
        }
        #expect(
            OfferKeyError.badID("has space").description
                == "'has space' is not a key id; give the key's identifier from App Store Connect (1 to 64 printable characters, no spaces)"
        )
        #expect(throws: OfferKeyError.notAKey("subscriptionOffersKeyPair.privateKey")) {
            try SubscriptionOfferKey.read(xcodePrivateKey: "...", id: "K")
        }
    }
}
