import Hummingbird
import NIOCore
import Synchronization

extension Router {
    /// The router answers 404 for a known path with a method it does not serve; this registers, for every path, the
    /// other methods as 405 `method_not_allowed` with an `Allow` header (RFC 9110 15.5.6), and hands `unknownMethods`
    /// the paths and their methods, for methods no route can name (QUERY, PROPFIND...). HEAD is allowed wherever GET
    /// is (the router generates it). On the admin API's paths a request is authenticated first, so that nobody learns
    /// its paths or methods without a token.
    /// `OPTIONS` on the paths `crossOrigin` opens to other origins is served: `CrossOrigin.preflight` answers it.
    package func answerMethodNotAllowed(
        unknownMethods: UnknownMethods? = nil, admin: AdminAuthenticator? = nil, crossOrigin: CrossOrigin? = nil
    ) {
        var served: [String: (path: RouterPath, methods: Set<HTTPRequest.Method>)] = [:]
        for route in routes {
            served[route.path.description, default: (route.path, [])].methods.insert(route.method)
        }
        // TRACE and OPTIONS too: TRACE is never served, OPTIONS only where other origins may call (the console is
        // same-origin), and both must say so.
        let all: [HTTPRequest.Method] = [.get, .head, .post, .put, .patch, .delete, .trace, .options]
        var table: [(template: [Substring], allowed: [HTTPRequest.Method])] = []
        for (path, methods) in served.values {
            let open = crossOrigin != nil && CrossOrigin.scope(of: path.description) != .closed
            let allowed = all.filter {
                methods.contains($0) || ($0 == .head && methods.contains(.get)) || ($0 == .options && open)
            }
            if open, let crossOrigin {
                let template = path.description
                on(path, method: .options) { request, _ -> Response in
                    crossOrigin.preflight(request, path: template, allowed: allowed)
                }
            }
            let guarded = AdminAuthenticator.guards(path.description) ? admin : nil
            for method in all where !allowed.contains(method) {
                on(path, method: method) { request, context -> Response in
                    if let guarded,
                        try await guarded.admin(for: request, peer: (context as? AppRequestContext)?.remoteAddress)
                            == nil
                    {
                        throw Problem.unauthorized
                    }
                    throw Problem.methodNotAllowed(allow: allowed)
                }
            }
            table.append((path.description.split(separator: "/"), allowed))
        }
        unknownMethods?.table.withLock { $0 = table }
        unknownMethods?.admin.withLock { $0 = admin }
    }
}

/// Any other method on a known path is a 405 too, with what the path allows; on an unknown path, still a 404.
/// `ProblemMiddleware` asks it only when the router found no route, so answered requests pay nothing for it.
package final class UnknownMethods: Sendable {
    fileprivate let table = Mutex<[(template: [Substring], allowed: [HTTPRequest.Method])]>([])
    /// Authenticates requests on the admin API's paths before their methods are told.
    fileprivate let admin = Mutex<AdminAuthenticator?>(nil)

    package init() {}

    /// The answer to an unknown method on `request`'s path: 405 with what the path allows, 401 on an admin path
    /// without an admin token; nil when no route has the path.
    package func problem(for request: Request, peer: SocketAddress?) async throws -> Problem? {
        guard let allowed = allowed(for: request.uri.path) else { return nil }
        if AdminAuthenticator.guards(request.uri.path), let admin = admin.withLock({ $0 }),
            try await admin.admin(for: request, peer: peer) == nil
        {
            return Problem.unauthorized
        }
        return Problem.methodNotAllowed(allow: allowed)
    }

    /// The methods `path` allows, when some route has that path.
    package func allowed(for path: String) -> [HTTPRequest.Method]? {
        let segments = path.split(separator: "/")
        return table.withLock { $0.first { Self.matches($0.template, segments) }?.allowed }
    }

    /// Whether `segments` fit a route's `template`: `{name}` takes any segment, `{name}.png` any ending in `.png`.
    package static func matches(_ template: [Substring], _ segments: [Substring]) -> Bool {
        guard template.count == segments.count else { return false }
        return zip(template, segments).allSatisfy { pattern, segment in
            guard pattern.first == "{", let close = pattern.firstIndex(of: "}") else { return pattern == segment }
            let suffix = pattern[pattern.index(after: close)...]
            return segment.count > suffix.count && segment.hasSuffix(suffix)
        }
    }
}
