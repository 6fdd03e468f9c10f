import CatalogCore
import Foundation
import Hummingbird

/// An RFC 9457 problem: every error the API answers, as `application/problem+json` with a stable `code`.
package struct Problem: HTTPResponseError, Sendable {
    package var status: HTTPResponse.Status
    package var code: String
    package var detail: String
    package var errors: [FieldIssue] = []
    package var headers: HTTPFields = [:]

    package init(_ status: HTTPResponse.Status, _ code: String, _ detail: String) {
        self.status = status
        self.code = code
        self.detail = detail
    }

    /// The body clients parse.
    package struct Body: Encodable {
        package var type = "about:blank"
        package var title: String
        package var status: Int
        package var code: String
        package var detail: String
        package var instance: String
        package var errors: [FieldIssue]?
        /// The request's `X-Request-Id`, to quote when reporting it.
        package var requestId: String?
    }

    package func response(from request: Request, context: some RequestContext) throws -> Response {
        let body = Body(
            title: status.reasonPhrase, status: status.code, code: code, detail: detail,
            instance: request.uri.path, errors: errors.isEmpty ? nil : errors,
            requestId: context.logger[metadataKey: RequestIdentity.logKey]?.description)
        var fields = headers
        fields[.contentType] = "application/problem+json"
        let data = try JSONEncoder.catalog.encode(body)
        return Response(status: status, headers: fields, body: .init(byteBuffer: ByteBuffer(bytes: data)))
    }
}

extension Problem {
    package static func invalidParameter(_ name: String, _ rule: String) -> Problem {
        Problem(.badRequest, "invalid_parameter", "Query parameter '\(name)' \(rule).")
    }

    package static func validationFailed(
        _ issues: [FieldIssue], status: HTTPResponse.Status = .unprocessableContent
    ) -> Problem {
        var problem = Problem(
            status, "validation_failed", issues.map { "\($0.field) \($0.message)" }.joined(separator: "; ") + ".")
        problem.errors = issues
        return problem
    }

    package static func notFound(_ what: String) -> Problem {
        Problem(.notFound, "not_found", "\(what) does not exist.")
    }

    package static var unauthorized: Problem {
        var problem = Problem(
            .unauthorized, "unauthorized", "A valid admin token is required: send 'Authorization: Bearer TOKEN'.")
        problem.headers[.wwwAuthenticate] = #"Bearer realm="stickerd""#
        return problem
    }

    package static func invalidBody(_ detail: String) -> Problem {
        Problem(.badRequest, "invalid_body", detail)
    }

    package static func tooLarge(limit: Int, what: String = "The request body") -> Problem {
        Problem(.contentTooLarge, "too_large", "\(what) is larger than \(limit) bytes.")
    }

    /// PostgreSQL cannot be reached: try again shortly.
    package static var databaseUnavailable: Problem {
        var problem = Problem(
            .serviceUnavailable, "database_unavailable", "The catalog database is unavailable; try again shortly.")
        problem.headers[.retryAfter] = "2"
        return problem
    }

    package static func methodNotAllowed(allow: [HTTPRequest.Method]) -> Problem {
        var problem = Problem(
            .methodNotAllowed, "method_not_allowed",
            "This resource supports \(allow.map(\.rawValue).joined(separator: ", ")) only.")
        problem.headers[.allow] = allow.map(\.rawValue).joined(separator: ", ")
        return problem
    }
}
