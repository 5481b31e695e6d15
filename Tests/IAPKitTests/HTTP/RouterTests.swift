import IAPKit
import Testing

@testable import IAPHTTP

@Suite("HTTP router and responses")
struct RouterTests {
    static func router() -> Router {
        var r = Router()
        r.add("GET", "/health") { _, _ in HTTPResponse(status: .ok, body: Array("ok".utf8)) }
        r.add("GET", "/inApps/v1/transactions/{transactionId}") { _, p in
            HTTPResponse(status: .ok, body: Array("tx \(p["transactionId"] ?? "?")".utf8))
        }
        r.add("POST", "/verifyReceipt") { req, _ in HTTPResponse(status: .ok, body: req.body) }
        r.add("PUT", "/inApps/v1/transactions/{transactionId}") { _, _ in HTTPResponse(status: .ok) }
        return r
    }

    static func body(_ r: HTTPResponse) -> String { String(decoding: r.body, as: UTF8.self) }

    @Test("a pattern captures its segment, percent-decoded; literal segments must match exactly")
    func captures() {
        let r = Self.router()
        let found = r.respond(to: HTTPRequest(method: "GET", target: "/inApps/v1/transactions/2000000000000001?x=1"))
        #expect(found.status == .ok)
        #expect(Self.body(found) == "tx 2000000000000001")
        #expect(Self.body(r.respond(to: HTTPRequest(method: "GET", target: "/inApps/v1/transactions/a%20b"))) == "tx a b")
        #expect(r.respond(to: HTTPRequest(method: "GET", target: "/inApps/V1/transactions/1")).status == .notFound)
    }

    @Test("404 for unknown paths, empty segments and trailing slashes, with the JSON error body")
    func notFound() {
        let r = Self.router()
        for target in ["/nope", "/health/", "/inApps/v1/transactions/", "/inApps/v1/transactions/1/2", "/"] {
            let response = r.respond(to: HTTPRequest(method: "GET", target: target))
            #expect(response.status == .notFound, "\(target)")
            #expect(response.headers["Content-Type"] == "application/json")
            #expect(
                Self.body(response)
                    == "{\"errorCode\":4040000,\"errorMessage\":\"no resource at \(target) (see docs/serve.md for the endpoints)\"}"
            )
        }
    }

    @Test("405 with Allow listing the path's methods in registration order, HEAD after GET")
    func methodNotAllowed() {
        let r = Self.router()
        let post = r.respond(to: HTTPRequest(method: "POST", target: "/health"))
        #expect(post.status == .methodNotAllowed)
        #expect(post.headers["Allow"] == "GET, HEAD")
        #expect(
            Self.body(post)
                == "{\"errorCode\":4050000,\"errorMessage\":\"method POST is not allowed on /health; use GET or HEAD\"}")
        let delete = r.respond(to: HTTPRequest(method: "DELETE", target: "/inApps/v1/transactions/1"))
        #expect(delete.headers["Allow"] == "GET, HEAD, PUT")
        #expect(r.respond(to: HTTPRequest(method: "GET", target: "/verifyReceipt")).headers["Allow"] == "POST")
    }

    @Test("HEAD is answered by the GET route; a malformed escape in the path is 400")
    func headAndBadEscape() {
        let r = Self.router()
        #expect(r.respond(to: HTTPRequest(method: "HEAD", target: "/health")).status == .ok)
        let bad = r.respond(to: HTTPRequest(method: "GET", target: "/inApps/v1/transactions/%zz"))
        #expect(bad.status == .badRequest)
        #expect(
            Self.body(bad)
                == "{\"errorCode\":4000000,\"errorMessage\":\"malformed percent escape in path '/inApps/v1/transactions/%zz'\"}")
    }

    @Test("serialization: status line, fields in order, Content-Length last, no Date; Connection by version and keep-alive")
    func serialization() {
        var response = HTTPResponse(
            status: .ok, headers: HTTPHeaders([("Content-Type", "application/json"), ("X-B", "2")]), body: Array("{}".utf8))
        response.headers.add("X-A", "1")
        let text = { (bytes: [UInt8]) in String(decoding: bytes, as: UTF8.self) }
        #expect(
            text(response.serialized())
                == "HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nX-B: 2\r\nX-A: 1\r\nContent-Length: 2\r\n\r\n{}")
        #expect(
            text(response.serialized(keepAlive: false))
                == "HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nX-B: 2\r\nX-A: 1\r\nConnection: close\r\nContent-Length: 2\r\n\r\n{}"
        )
        #expect(
            text(response.serialized(version: .http1_0))
                == "HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nX-B: 2\r\nX-A: 1\r\nConnection: keep-alive\r\nContent-Length: 2\r\n\r\n{}"
        )
        #expect(
            text(response.serialized(headOnly: true))
                == "HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nX-B: 2\r\nX-A: 1\r\nContent-Length: 2\r\n\r\n")
        #expect(response.serialized() == response.serialized(), "deterministic")
        let failure = HTTPResponse.parseFailure(.bodyTooLarge(limit: 10))
        #expect(
            text(failure.serialized())
                == "HTTP/1.1 413 Content Too Large\r\nContent-Type: application/json\r\nConnection: close\r\nContent-Length: 93\r\n\r\n{\"errorCode\":4130000,\"errorMessage\":\"request body larger than 10 bytes; send a smaller body\"}"
        )
    }

    @Test("headers: case-insensitive lookup, list elements, set replaces every field of the name")
    func headers() {
        var h = HTTPHeaders([("Connection", "keep-alive, Upgrade"), ("connection", " close "), ("X", "1")])
        #expect(h.listElements("CONNECTION") == ["keep-alive", "Upgrade", "close"])
        h.set("CONNECTION", "close")
        #expect(h.fields == [.init(name: "CONNECTION", value: "close"), .init(name: "X", value: "1")])
        h.remove("x")
        #expect(h.count == 1)
    }
}
