import CatalogCore
import Foundation
import Hummingbird

/// `/v1/admin/groups`: create, list, read, change and delete groups, and order their stickers.
package struct GroupController {
    package let repository: any GroupRepository
    package let linker: AssetLinker

    package func addRoutes(to group: RouterGroup<AdminRequestContext>) {
        group.post(use: create)
        group.get(use: list)
        group.get("{id}", use: show)
        group.patch("{id}", use: update)
        group.delete("{id}", use: delete)
        group.put("{id}/order", use: order)
    }

    /// Group ids are slugs; anything else names no group (and never reaches SQL).
    package static func groupId(_ context: AdminRequestContext) throws -> String {
        let id = try context.parameters.require("id")
        guard Validate.isSlug(id) else { throw CatalogError.notFound("Group '\(id.prefix(64))'") }
        return id
    }

    @Sendable package func create(
        _ request: Request, context: AdminRequestContext
    ) async throws -> EditedResponse<AdminGroup> {
        let draft = try await request.decode(as: GroupDraft.self, context: context)
        try draft.validate()
        let answer = { @Sendable (group: StickerGroup) in
            EditedResponse(
                status: .created, headers: [.location: "/v1/admin/groups/\(group.id)"],
                response: AdminGroup(group: group, stickerCount: 0, stickers: []))
        }
        let group = try await repository.createGroup(draft, keeping: context.keeping(request, answer))
        context.logger.info("Group created", metadata: ["group": "\(group.id)"])
        return answer(group)
    }

    @Sendable package func list(_ request: Request, context: AdminRequestContext) async throws -> AdminGroupPage {
        let limit = try Self.integer(request, "limit", default: 50, range: 1...200)
        let offset = try Self.integer(request, "offset", default: 0, range: 0...Int(Int32.max))
        // One extra row tells whether another page follows.
        let rows = try await repository.groups(limit: limit + 1, offset: offset)
        return AdminGroupPage(
            groups: rows.prefix(limit).map { AdminGroup(group: $0.group, stickerCount: $0.stickerCount) },
            limit: limit, offset: offset, nextOffset: rows.count > limit ? offset + limit : nil)
    }

    @Sendable package func show(_ request: Request, context: AdminRequestContext) async throws -> AdminGroup {
        let id = try Self.groupId(context)
        guard let group = try await repository.group(id: id) else { throw CatalogError.notFound("Group '\(id)'") }
        let stickers = try await repository.stickers(inGroup: id)
        return AdminGroup(
            group: group, stickerCount: stickers.count, stickers: stickers.map { AdminSticker($0, linker: linker) })
    }

    @Sendable package func update(_ request: Request, context: AdminRequestContext) async throws -> AdminGroup {
        let id = try Self.groupId(context)
        let patch = try await request.decode(as: GroupPatch.self, context: context)
        try patch.validate()
        let linker = linker
        let answer = { @Sendable (updated: GroupWithStickers?) throws in
            guard let updated else { throw CatalogError.notFound("Group '\(id)'") }
            return AdminGroup(
                group: updated.group, stickerCount: updated.stickers.count,
                stickers: updated.stickers.map { AdminSticker($0, linker: linker) })
        }
        let response = try answer(
            try await repository.updateGroup(id: id, patch, keeping: context.keeping(request, answer)))
        context.logger.info("Group updated", metadata: ["group": "\(id)"])
        return response
    }

    @Sendable package func delete(_ request: Request, context: AdminRequestContext) async throws -> HTTPResponse.Status
    {
        let id = try Self.groupId(context)
        let answer = { @Sendable (deleted: Bool) throws -> HTTPResponse.Status in
            guard deleted else { throw CatalogError.notFound("Group '\(id)'") }
            return .noContent
        }
        let response = try answer(try await repository.deleteGroup(id: id, keeping: context.keeping(request, answer)))
        context.logger.info("Group deleted with its stickers", metadata: ["group": "\(id)"])
        return response
    }

    @Sendable package func order(_ request: Request, context: AdminRequestContext) async throws -> [AdminSticker] {
        let id = try Self.groupId(context)
        let order = try await request.decode(as: StickerOrder.self, context: context)
        guard try await repository.group(id: id) != nil else { throw CatalogError.notFound("Group '\(id)'") }
        let linker = linker
        let answer = { @Sendable (stickers: [Sticker]) in stickers.map { AdminSticker($0, linker: linker) } }
        let stickers = try await repository.orderStickers(
            inGroup: id, order.stickerIds, keeping: context.keeping(request, answer))
        context.logger.info("Stickers reordered", metadata: ["group": "\(id)", "count": "\(stickers.count)"])
        return answer(stickers)
    }

    /// An integer query parameter within `range`, or a 400 problem.
    package static func integer(
        _ request: Request, _ name: String, default value: Int, range: ClosedRange<Int>
    ) throws -> Int {
        guard let text = request.uri.queryParameters[Substring(name)] else { return value }
        guard let number = Int(text), range.contains(number) else {
            throw CatalogError.invalidParameter(
                name: name, rule: "must be an integer from \(range.lowerBound) to \(range.upperBound)")
        }
        return number
    }

    package init(repository: any GroupRepository, linker: AssetLinker) {
        self.repository = repository
        self.linker = linker
    }
}
