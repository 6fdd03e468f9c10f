import CatalogCore
import CatalogServices
import Foundation
import HTTPTypes
import Hummingbird
import Logging
import StickerImage
import StickerPacks

/// `GET /v1/admin/exports/{platform}`: a view of the catalog as WhatsApp, Telegram or Signal packs, or Xcode's
/// `Stickers.xcstickers`, as a zip of the files `stickerd export` writes (with `report.json`). The zip streams: a group
/// is read and encoded only when the socket took the one before (`ExportRun`, `ZipStream`), so memory holds a group's
/// images whatever the catalog's size. One export at a time per replica, held until its last byte, since it decodes
/// and encodes every picture: another is 503 `export_in_progress` with `Retry-After`. `HEAD` checks the request and
/// makes nothing.
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
        let headers: HTTPFields = [
            .contentType: "application/zip", .cacheControl: "no-store",
            HTTPField.Name("Content-Disposition")!: "attachment; filename=\"stickers-\(name).zip\"",
        ]
        let snapshot = try await manifests.currentSnapshot()
        if request.method == .head {
            _ = try selection.groups(in: snapshot, linker: AssetLinker(publicBaseURL: nil))
            return Response(status: .ok, headers: headers)
        }
        let slot = try gate.take()
        let files =
            if let exporter {
                try await ExportFiles.packs(
                    try ExportRun(exporter, selection: selection, snapshot: snapshot, reader: reader))
            } else {
                try await ExportFiles.folder(
                    try await CatalogExport.xcstickersFolder(selection: selection, snapshot: snapshot, reader: reader))
            }
        return Response(
            status: .ok, headers: headers, body: Self.body(files, slot: slot, logger: context.logger, name: name))
    }

    /// The zip of `files`, written as the socket takes it; `slot` is given back after its last byte (or when the body
    /// is dropped unwritten: a client gone first).
    package static func body(
        _ files: ExportFiles, slot: UploadGate.Slot, logger: Logger, name: String
    ) -> ResponseBody {
        ResponseBody { writer in
            var (files, zip) = (files, ZipStream())
            defer {
                files.close()
                slot.release()
            }
            while let batch = try await files.next() {
                for file in batch {
                    try await writer.write(ByteBuffer(bytes: zip.entry(path: file.path, bytes: file.bytes)))
                }
            }
            try await writer.write(ByteBuffer(bytes: zip.finish()))
            try await writer.finish(nil)
            logger.info("Catalog exported", metadata: ["platform": "\(name)", "bytes": "\(zip.offset)"])
        }
    }

    package init(manifests: ManifestService, reader: any CatalogReader, rules: StickerRules) {
        self.manifests = manifests
        self.reader = reader
        self.rules = rules
    }
}
