import Foundation
import HTTPTypes
import Hummingbird

// The framework's ceiling for `make bench`: a bare Hummingbird app (no middleware, no cache lookup, no query
// parsing) answering fixed bytes from memory, with the headers stickerd sends; a 304 when `If-None-Match` is the
// route's ETag exactly, with the headers stickerd's 304 keeps.
// Usage: baseline-server PORT PATH=FILE [+NAME:VALUE]... [PATH=FILE [+NAME:VALUE]...]...
let arguments = Array(CommandLine.arguments.dropFirst())
guard let port = arguments.first.flatMap(Int.init) else {
    FileHandle.standardError.write(Data("usage: baseline-server PORT PATH=FILE [+NAME:VALUE]...\n".utf8))
    exit(2)
}
var routes: [(path: String, body: ByteBuffer, headers: HTTPFields)] = []
for argument in arguments.dropFirst() {
    if argument.hasPrefix("+"), let colon = argument.firstIndex(of: ":"), !routes.isEmpty,
        let name = HTTPField.Name(String(argument.dropFirst().prefix(upTo: colon)))
    {
        routes[routes.count - 1].headers[name] = argument[argument.index(after: colon)...].trimmingCharacters(
            in: .whitespaces)
    } else if let equals = argument.firstIndex(of: "=") {
        let file = String(argument[argument.index(after: equals)...])
        routes.append(
            (String(argument[..<equals]), ByteBuffer(bytes: try Data(contentsOf: URL(fileURLWithPath: file))), [:]))
    }
}
let router = Router()
for route in routes {
    let (body, headers) = (route.body, route.headers)
    let etag = headers[.eTag]
    var kept = headers
    (kept[.contentType], kept[.contentLength], kept[.contentEncoding]) = (nil, nil, nil)
    let notModified = kept
    router.get(RouterPath(route.path)) { request, _ in
        if let etag, request.headers[.ifNoneMatch] == etag {
            return Response(status: .notModified, headers: notModified)
        }
        return Response(status: .ok, headers: headers, body: .init(byteBuffer: body))
    }
}
let app = Application(
    router: router, configuration: .init(address: .hostname("127.0.0.1", port: port), serverName: "baseline"))
try await app.runService()
