import CatalogServices
import Hummingbird

extension ManifestService {
    /// The answer to `request`: `served` in the coding the client prefers, compressed on a build thread the first time
    /// that coding is asked for (one compression however many ask at once), and again at the best level, at low
    /// priority, once it has served often enough to repay it.
    package func response(_ served: Served, for request: Request, personal: Bool = false) async throws -> Response {
        let body = served.body
        let (coding, ready, upgrade) = body.select(request.headers[.acceptEncoding])
        if upgrade { scheduleUpgrade(served, coding) }
        let representation = if let ready { ready } else { try await compressed(served, coding) }
        return body.response(representation, for: request, stale: served.stale, personal: personal)
    }

    private func scheduleUpgrade(_ served: Served, _ coding: ContentCoding) {
        ManifestWorkers.shared.upgrade { [self] in
            // A body of an older revision, or one evicted meanwhile, is not worth the work.
            guard isKept(served) else { return }
            _ = served.body.compress(coding, .best)
            recount(served)
        }
    }
}
