import CatalogCore
import Foundation
import NIOPosix
import StickerImage
import StickerPacks

/// An export pulled a group at a time: each `next()` reads one group's uploads, makes its packs on the thread pool and
/// hands their files back, then the listing files (WhatsApp's `contents.json`), then `report.json`. Nothing is made
/// before it is asked for, so a reader that writes each batch before asking again (a socket, a folder) holds one
/// group's images at a time whatever the catalog's size, and its pace is the reader's.
package struct ExportRun: Sendable {
    private var exporter: any PackExporter
    private let groups: [ManifestGroup]
    private let notes: [String]
    private let snapshot: CatalogSnapshot
    private let reader: any CatalogReader
    private var done = 0
    private var finished = false
    /// Files handed out so far that belong to a pack (`report.json` aside).
    package private(set) var packFiles = 0

    /// Groups the selection takes, and those made so far.
    package var total: Int { groups.count }
    package var progress: Int { done }

    /// Throws what the selection refuses (`notFound`, `invalid`) before anything is read.
    package init(
        _ exporter: any PackExporter, selection: ExportSelection, snapshot: CatalogSnapshot, reader: any CatalogReader
    ) throws(CatalogError) {
        let (_, groups, notes) = try selection.groups(in: snapshot, linker: AssetLinker(publicBaseURL: nil))
        (self.exporter, self.groups, self.notes, self.snapshot, self.reader) = (
            exporter, groups, notes, snapshot, reader
        )
    }

    /// The next batch of files (maybe none, for a group refused whole), or nil once `report.json` was handed out.
    package mutating func next() async throws -> [PackFile]? {
        if done < groups.count {
            let group = try await CatalogExport.packGroup(groups[done], snapshot: snapshot, reader: reader)
            let (made, files) = try await NIOThreadPool.singleton.runIfActive { [exporter] in
                var exporter = exporter
                let files = try exporter.add(group)
                return (exporter, files)
            }
            (exporter, done, packFiles) = (made, done + 1, packFiles + files.count)
            return files
        }
        guard !finished else { return nil }
        finished = true
        let listing = try exporter.finish()
        packFiles += listing.count
        return listing + [PackFile(path: "report.json", bytes: try Self.encode(report))]
    }

    /// What was made and refused so far, with the selection's notes (premium groups left out).
    package var report: ExportReport {
        var report = exporter.report
        report.notes = notes + report.notes
        return report
    }

    private static func encode(_ report: ExportReport) throws -> [UInt8] {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        return Array(try encoder.encode(report))
    }
}
