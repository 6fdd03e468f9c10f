import CatalogCore
import CatalogServices
import Foundation
import Hummingbird
import StickerPacks

/// An export's files as its answer pulls them, a batch at a time: a platform's packs made group by group, or the
/// files of a folder written beforehand (`Stickers.xcstickers`), each read from disk as it is sent and the folder
/// removed when the answer is done with (also when it is never sent).
package struct ExportFiles: Sendable {
    private var run: ExportRun?
    private var ready: [PackFile]
    private let folder: Folder?
    private var paths: ArraySlice<String>

    /// A folder removed when the last copy of the answer's files is dropped.
    final class Folder: Sendable {
        let url: URL
        init(_ url: URL) { self.url = url }
        func remove() { try? FileManager.default.removeItem(at: url) }
        deinit { remove() }
    }

    /// `run`'s files, made up to its first pack before the answer's head: an export that makes no pack is a 422
    /// `nothing_to_export` saying why, not an empty zip.
    package static func packs(_ run: ExportRun) async throws -> ExportFiles {
        var (run, ready) = (run, [PackFile]())
        while run.report.packs.isEmpty, let files = try await run.next() { ready += files }
        guard !run.report.packs.isEmpty else {
            let report = run.report
            let reasons = report.refused.map { "\($0.name ?? $0.group): \($0.reason)" } + report.notes
            throw Problem(
                .unprocessableContent, "nothing_to_export",
                "No pack can be made: "
                    + (reasons.isEmpty ? "the view shows no free sticker." : reasons.joined(separator: "; ")))
        }
        return ExportFiles(run: run, ready: ready, folder: nil, paths: [])
    }

    /// The files under `folder` at `paths`.
    package static func folder(_ written: (folder: URL, paths: [String])) async throws -> ExportFiles {
        ExportFiles(run: nil, ready: [], folder: Folder(written.folder), paths: written.paths[...])
    }

    /// Removes the files written beforehand, once the answer is done with them.
    package func close() { folder?.remove() }

    /// The next batch, or nil when every file was handed out.
    package mutating func next() async throws -> [PackFile]? {
        if !ready.isEmpty {
            defer { ready = [] }
            return ready
        }
        if run != nil { return try await run!.next() }
        guard let folder, let path = paths.popFirst() else { return nil }
        return [PackFile(path: path, bytes: Array(try Data(contentsOf: folder.url.appending(path: path))))]
    }
}
