import CatalogCore
import Hummingbird

/// `PUT|DELETE /v1/admin/filters/{name}`.
package struct FilterController {
    package let repository: any FilterRepository

    package func addRoutes(to group: RouterGroup<AdminRequestContext>) {
        group.put("{name}", use: put)
        group.delete("{name}", use: delete)
    }

    @Sendable package func put(
        _ request: Request, context: AdminRequestContext
    ) async throws -> EditedResponse<StickerFilter> {
        let name = try context.parameters.require("name")
        let body = try await request.decode(as: FilterBody.self, context: context)
        var errors = FieldErrors()
        errors.check(Validate.isSlug(name), "name", "must be a URL-safe slug such as chocoholic")
        errors.check(!body.flags.isEmpty, "flags", "must name at least one flag")
        errors.flags(body.flags)
        if let title = body.title { errors.text(title, "title", maxLength: Validate.maxName) }
        try errors.throwIfAny()
        let filter = StickerFilter(name: name, title: body.title ?? name, flags: Array(Set(body.flags)).sorted())
        let answer = { @Sendable (created: Bool) in EditedResponse(status: created ? .created : .ok, response: filter) }
        let created = try await repository.putFilter(filter, keeping: context.keeping(request, answer))
        context.logger.info(created ? "Filter created" : "Filter replaced", metadata: ["filter": "\(name)"])
        return answer(created)
    }

    @Sendable package func delete(_ request: Request, context: AdminRequestContext) async throws -> HTTPResponse.Status
    {
        let name = try context.parameters.require("name")
        let answer = { @Sendable (deleted: Bool) throws -> HTTPResponse.Status in
            guard deleted else { throw CatalogError.notFound("Filter '\(name.prefix(64))'") }
            return .noContent
        }
        guard Validate.isSlug(name) else { return try answer(false) }
        let response = try answer(
            try await repository.deleteFilter(name: name, keeping: context.keeping(request, answer)))
        context.logger.info("Filter deleted", metadata: ["filter": "\(name)"])
        return response
    }

    package init(repository: any FilterRepository) {
        self.repository = repository
    }
}
