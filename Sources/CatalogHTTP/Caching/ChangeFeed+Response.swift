import CatalogServices
import Hummingbird

extension ChangeFeed {
    /// The answer to `request` with `page` in the coding the client prefers, compressed on a build thread the first
    /// time that coding is asked for (one compression however many ask at once). The cache is charged for the
    /// compressed copy, which the page keeps: uncharged, a few thousand pages' copies would sit beyond the cache's byte
    /// bound.
    package func response(_ page: Page, for request: Request) async throws -> Response {
        let body = page.body
        let (coding, ready, _) = body.select(request.headers[.acceptEncoding])
        let representation = if let ready { ready } else { try await compressed(page, coding) }
        return body.response(representation, for: request, personal: true)
    }
}
