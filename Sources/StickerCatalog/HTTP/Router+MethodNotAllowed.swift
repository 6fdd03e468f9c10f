import Hummingbird

extension Router {
    /// The router answers 404 for a known path with a method it does not serve; this registers, for every path, the
    /// other methods as 405 `method_not_allowed` with an `Allow` header (RFC 9110 15.5.6). HEAD is allowed wherever
    /// GET is (the router generates it).
    func answerMethodNotAllowed() {
        var served: [String: (path: RouterPath, methods: Set<HTTPRequest.Method>)] = [:]
        for route in routes {
            served[route.path.description, default: (route.path, [])].methods.insert(route.method)
        }
        // TRACE and OPTIONS too: neither is served (no CORS: the console is same-origin), and both must say so.
        let all: [HTTPRequest.Method] = [.get, .head, .post, .put, .patch, .delete, .trace, .options]
        for (path, methods) in served.values {
            let allowed = all.filter { methods.contains($0) || ($0 == .head && methods.contains(.get)) }
            for method in all where !allowed.contains(method) {
                on(path, method: method) { _, _ -> Response in throw Problem.methodNotAllowed(allow: allowed) }
            }
        }
    }
}
