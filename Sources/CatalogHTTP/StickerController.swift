import CatalogCore
import CatalogServices
import Foundation
import Hummingbird
import NIOPosix
import StickerImage

/// Sticker uploads into a group and `/v1/admin/stickers/{id}`.
package struct StickerController {
    package let repository: any StickerRepository
    package let validator: StickerValidator
    package let linker: AssetLinker
    package let uploads: UploadGate
    package let metrics: CatalogMetrics

    /// `authenticated`: the admin routes before `idempotency`, which an upload passes only once it holds a slot, so
    /// that no upload past the bound has its body read, keyed or not.
    package func addRoutes(
        authenticated: RouterGroup<AdminRequestContext>, idempotency: IdempotencyMiddleware,
        stickers: RouterGroup<AdminRequestContext>
    ) {
        authenticated.group("groups/{id}/stickers")
            .add(middleware: UploadAdmission(gate: uploads, metrics: metrics))
            .add(middleware: idempotency)
            .post(use: upload)
        stickers.get("{id}", use: show)
        stickers.patch("{id}", use: update)
        stickers.delete("{id}", use: delete)
    }

    /// Validates the image through libpng or libwebp off the event loop, then stores image and sticker in one
    /// transaction; counts the verdict. Runs holding an upload slot (`UploadAdmission`).
    @Sendable package func upload(
        _ request: Request, context: AdminRequestContext
    ) async throws -> EditedResponse<AdminSticker> {
        do {
            let answer = try await store(request, context: context)
            metrics.upload(verdict: "accepted")
            return answer
        } catch {
            metrics.upload(verdict: Problem(error)?.code ?? "internal_error")
            throw error
        }
    }

    private func store(_ request: Request, context: AdminRequestContext) async throws -> EditedResponse<AdminSticker> {
        let groupId = try GroupController.groupId(context)
        guard let group = try await repository.group(id: groupId) else {
            throw CatalogError.notFound("Group '\(groupId)'")
        }
        let upload = try await UploadReader.read(request, imageLimit: validator.rules.maxBytes)
        try validator.preflight(upload.image)
        let draft = try StickerDraft(fields: upload.fields)
        try draft.validate()
        var (info, renditions) = try await validateRendering(upload.image)
        let (linker, warnings) = (linker, validator.warnings(for: info, in: group.sizeClass))
        let answer = { @Sendable (sticker: Sticker) in
            EditedResponse(
                status: .created, headers: [.location: "/v1/admin/stickers/\(sticker.id.apiString)"],
                response: AdminSticker(sticker, linker: linker, warnings: warnings))
        }
        let sticker: Sticker
        do {
            sticker = try await repository.addSticker(
                to: groupId, draft, image: info.storedBytes, info: info, renditions: renditions,
                keeping: context.keeping(request, answer))
        } catch is RenditionsMissing {
            // gc took the stored renditions between the check and the commit: make them after all.
            (info, renditions) = try await validateRendering(upload.image, reuse: false)
            sticker = try await repository.addSticker(
                to: groupId, draft, image: info.storedBytes, info: info, renditions: renditions,
                keeping: context.keeping(request, answer))
        }
        context.logger.info(
            "Sticker uploaded",
            metadata: [
                "group": "\(groupId)", "sticker": "\(sticker.id.apiString)", "bytes": "\(upload.image.count)",
                "stored": "\(info.storedBytes.count)", "frames": "\(info.frames)", "sha256": "\(sticker.asset.sha256)",
                "renditions": "\(renditions.isEmpty ? "reused" : "\(renditions.count) made")",
            ])
        return answer(sticker)
    }

    /// Validates the image and makes its renditions, off the event loop, in one decoding pass; an image stored with
    /// current renditions already (the same picture uploaded again) is only validated.
    package func validateRendering(_ image: [UInt8], reuse: Bool = true) async throws -> (StickerImageInfo, [Rendition])
    {
        let validator = self.validator
        let digest =
            !reuse
            ? nil
            : try await NIOThreadPool.singleton.runIfActive { () throws -> String? in
                (try? StickerSource(image, rules: validator.rules)).map { sha256Hex($0.strippedBytes) }
            }
        let stored = if let digest { try await repository.renditionsVersion(sha256: digest) } else { Int?.none }
        let current = stored == Renditions.version
        let started = ContinuousClock.now
        let made = try await NIOThreadPool.singleton.runIfActive {
            current ? (try validator.validate(image), []) : try validator.validateRendering(image)
        }
        if !current { metrics.renditionSeconds.record(ContinuousClock.now - started) }
        return made
    }

    @Sendable package func show(_ request: Request, context: AdminRequestContext) async throws -> AdminSticker {
        let id = try Self.stickerId(context)
        guard let sticker = try await repository.sticker(id: id) else {
            throw CatalogError.notFound("Sticker '\(id.apiString)'")
        }
        return AdminSticker(sticker, linker: linker)
    }

    @Sendable package func update(_ request: Request, context: AdminRequestContext) async throws -> AdminSticker {
        let id = try Self.stickerId(context)
        let patch = try await request.decode(as: StickerPatch.self, context: context)
        try patch.validate()
        let linker = linker
        let answer = { @Sendable (sticker: Sticker?) throws in
            guard let sticker else { throw CatalogError.notFound("Sticker '\(id.apiString)'") }
            return AdminSticker(sticker, linker: linker)
        }
        let response = try answer(
            try await repository.updateSticker(id: id, patch, keeping: context.keeping(request, answer)))
        context.logger.info("Sticker updated", metadata: ["sticker": "\(id.apiString)"])
        return response
    }

    @Sendable package func delete(_ request: Request, context: AdminRequestContext) async throws -> HTTPResponse.Status
    {
        let id = try Self.stickerId(context)
        let answer = { @Sendable (deleted: Bool) throws -> HTTPResponse.Status in
            guard deleted else { throw CatalogError.notFound("Sticker '\(id.apiString)'") }
            return .noContent
        }
        let response = try answer(try await repository.deleteSticker(id: id, keeping: context.keeping(request, answer)))
        context.logger.info("Sticker deleted", metadata: ["sticker": "\(id.apiString)"])
        return response
    }

    /// Sticker ids are UUIDs; anything else names no sticker.
    package static func stickerId(_ context: AdminRequestContext) throws -> UUID {
        let text = try context.parameters.require("id")
        guard let id = UUID(uuidString: text) else { throw CatalogError.notFound("Sticker '\(text.prefix(64))'") }
        return id
    }

    package init(
        repository: any StickerRepository, validator: StickerValidator, linker: AssetLinker, uploads: UploadGate,
        metrics: CatalogMetrics
    ) {
        self.repository = repository
        self.validator = validator
        self.linker = linker
        self.uploads = uploads
        self.metrics = metrics
    }
}
