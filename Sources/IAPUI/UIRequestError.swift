import IAPHTTP

/// Why a `/ui/` request gets no ordinary answer: the status and a one-line message naming the
/// value and the fix, sent in the server's error shape (`{"errorCode": ..., "errorMessage": ...}`).
package enum UIRequestError: Error, Equatable {
    case badRequest(String)
    case forbidden(String)
    case notFound(String)
    case unsupportedMediaType(String)
    case internalError(String)

    package var status: HTTPStatus {
        switch self {
        case .badRequest: return .badRequest
        case .forbidden: return .forbidden
        case .notFound: return .notFound
        case .unsupportedMediaType: return .unsupportedMediaType
        case .internalError: return .internalServerError
        }
    }

    package var message: String {
        switch self {
        case .badRequest(let m), .forbidden(let m), .notFound(let m), .unsupportedMediaType(let m), .internalError(let m):
            return m
        }
    }

    package var response: HTTPResponse { .error(status, message: message) }
}
