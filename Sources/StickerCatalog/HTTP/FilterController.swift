import Hummingbird

/// `PUT|DELETE /v1/admin/filters/{name}`.
struct FilterController {
    let repository: any FilterRepository

    func addRoutes(to group: RouterGroup<AdminRequestContext>) {
        group.put("{name}", use: put)
        group.delete("{name}", use: delete)
    }

    @Sendable func put(_ request: Request, context: AdminRequestContext) async throws -> EditedResponse<StickerFilter> {
        let name = try context.parameters.require("name")
        let body = try await request.decode(as: FilterBody.self, context: context)
        var errors = FieldErrors()
        errors.check(Validate.isSlug(name), "name", "must be a URL-safe slug such as chocoholic")
        errors.check(!body.flags.isEmpty, "flags", "must name at least one flag")
        errors.flags(body.flags)
        if let title = body.title { errors.text(title, "title", maxLength: Validate.maxName) }
        try errors.throwIfAny()
        let filter = StickerFilter(name: name, title: body.title ?? name, flags: Array(Set(body.flags)).sorted())
        let created = try await repository.putFilter(filter)
        context.logger.info(created ? "Filter created" : "Filter replaced", metadata: ["filter": "\(name)"])
        return EditedResponse(status: created ? .created : .ok, response: filter)
    }

    @Sendable func delete(_ request: Request, context: AdminRequestContext) async throws -> HTTPResponse.Status {
        let name = try context.parameters.require("name")
        guard Validate.isSlug(name), try await repository.deleteFilter(name: name) else { throw CatalogError.notFound("Filter '\(name.prefix(64))'") }
        context.logger.info("Filter deleted", metadata: ["filter": "\(name)"])
        return .noContent
    }
}
