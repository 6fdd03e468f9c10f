import CatalogCore
import CatalogSearch
import Foundation
import Hummingbird

/// `GET /v1/admin/stats/stickers` and `/groups`: usage counts per day for a period, as JSON or, with
/// `Accept: text/csv`, as a spreadsheet's CSV (a column per day).
package struct UsageStatsController {
    package let repository: any UsageRepository

    package func addRoutes(to group: RouterGroup<AdminRequestContext>) {
        group.get("stickers") { try await stats(.stickers, $0, $1) }
        group.get("groups") { try await stats(.groups, $0, $1) }
    }

    private func stats(
        _ subject: UsageStatsQuery.Subject, _ request: Request, _ context: AdminRequestContext
    ) async throws -> Response {
        let parameters = ManifestController.parameters(request)
        let (limit, offset) = try SearchCursor.page(
            parameters, defaultLimit: 50, maxLimit: UsageStatsQuery.maxLimit)
        var query = try UsageStatsQuery(subject, parameters: parameters, offset: offset, today: UsageDay(Date()))
        query.limit = limit
        let stats = try await repository.stats(query)
        let csv = request.headers[.accept]?.contains("text/csv") ?? false
        let text = csv ? stats.csv : stats.json
        return Response(
            status: .ok,
            headers: [
                .contentType: csv ? "text/csv; charset=utf-8" : "application/json", .cacheControl: "no-store",
                .vary: "Accept",
            ],
            body: .init(byteBuffer: ByteBuffer(bytes: text)))
    }

    package init(repository: any UsageRepository) { self.repository = repository }
}
