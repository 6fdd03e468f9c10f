import CatalogCore
import CatalogServices
import Foundation
import HTTPTypes
import Hummingbird
import NIOPosix
import StickerImage
import StickerPacks
import ZIPFoundation

/// `GET /v1/admin/exports/{platform}`: a view of the catalog as WhatsApp, Telegram or Signal packs, or Xcode's
/// `Stickers.xcstickers`, as a zip of the files `stickerd export` writes (with `report.json`). One export at a time per
/// replica, since it decodes and encodes every picture: another is 503 `export_in_progress` with `Retry-After`.
package struct ExportController {
    package let manifests: ManifestService
    package let reader: any CatalogReader
    package let rules: StickerRules
    package let gate = UploadGate(limit: 1, code: "export_in_progress", work: "exports")

    package func addRoutes(to group: RouterGroup<AdminRequestContext>) {
        group.get("{platform}", use: export)
    }

    @Sendable package func export(_ request: Request, context: AdminRequestContext) async throws -> Response {
        let name = try context.parameters.require("platform")
        let parameters = Dictionary(
            request.uri.queryParameters.map { (String($0.key), String($0.value)) },
            uniquingKeysWith: { first, _ in first })
        guard name == "xcstickers" || PackPlatform(rawValue: name) != nil else {
            throw CatalogError.notFound("Platform '\(name.prefix(32))' (whatsapp, telegram, signal or xcstickers)")
        }
        try CatalogExport.checkParameters(parameters)
        let selection = try ExportSelection(parameters: parameters)
        let exporter = try PackPlatform(rawValue: name).map {
            try CatalogExport.exporter($0, parameters: parameters, rules: rules)
        }
        let zip = try await gate.withSlot {
            let snapshot = try await manifests.currentSnapshot()
            var files: [PackFile] = []
            if let exporter {
                let report = try await CatalogExport.run(
                    exporter, selection: selection, snapshot: snapshot, reader: reader
                ) { files.append($0) }
                guard !report.packs.isEmpty else {
                    let reasons = report.refused.map { "\($0.name ?? $0.group): \($0.reason)" } + report.notes
                    throw Problem(
                        .unprocessableContent, "nothing_to_export",
                        "No pack can be made: "
                            + (reasons.isEmpty ? "the view shows no free sticker." : reasons.joined(separator: "; ")))
                }
            } else {
                files = try await CatalogExport.xcstickersFiles(
                    selection: selection, snapshot: snapshot, reader: reader)
            }
            // A CRC over every byte, and copies: off the event loop.
            return try await NIOThreadPool.singleton.runIfActive { [files] in ByteBuffer(data: try Self.zip(files)) }
        }
        context.logger.info("Catalog exported", metadata: ["platform": "\(name)", "bytes": "\(zip.readableBytes)"])
        return Response(
            status: .ok,
            headers: [
                .contentType: "application/zip", .cacheControl: "no-store",
                HTTPField.Name("Content-Disposition")!: "attachment; filename=\"stickers-\(name).zip\"",
            ], body: ResponseBody(byteBuffer: zip))
    }

    /// `files` as a zip, stored (their pictures are compressed already).
    package static func zip(_ files: [PackFile]) throws -> Data {
        let archive = try Archive(accessMode: .create)
        for file in files {
            try archive.addEntry(
                with: file.path, type: .file, uncompressedSize: Int64(file.bytes.count), compressionMethod: .none
            ) { position, size in
                Data(file.bytes[Int(position)..<(Int(position) + size)])
            }
        }
        guard let data = archive.data else {
            throw Problem(.internalServerError, "internal_error", "The zip could not be made.")
        }
        return data
    }

    package init(manifests: ManifestService, reader: any CatalogReader, rules: StickerRules) {
        self.manifests = manifests
        self.reader = reader
        self.rules = rules
    }
}

extension Problem {
    /// An export over what one answer may hold.
    package static func exportTooLarge(_ why: String) -> Problem {
        Problem(
            .unprocessableContent, "export_too_large", "The export is too large (\(why)): choose a filter or a group.")
    }
}
