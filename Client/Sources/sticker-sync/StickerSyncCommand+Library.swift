import Foundation
import StickerCatalogClient

extension StickerSyncCommand {
    /// Library mode: the installs and removals asked for, a sync of the installed groups, and the index when asked;
    /// one line each.
    func runLibrary(_ library: StickerLibrary) async throws {
        for id in uninstall {
            try await library.uninstall(group: id)
            Self.say("uninstalled \(id)")
        }
        for id in install {
            let group = try await library.install(group: id)
            Self.say("installed \(id): \(group.group.stickers.count) stickers, version \(group.version)")
        }
        let report = try await library.sync()
        Self.say(Self.line(report, installed: library.installed.count))
        guard self.index else { return }
        var (cursor, groups, pages) = (String?.none, 0, 0)
        repeat {
            let page = try await library.index(limit: 500, after: cursor)
            (cursor, groups, pages) = (page.next, groups + page.groups.count, pages + 1)
        } while cursor != nil && pages < 1_000
        Self.say(
            "index: \(groups) groups in \(pages) pages; \(library.cachedBytes) bytes of covers and previews cached")
    }

    /// One line per library sync.
    static func line(_ report: StickerLibrary.Report, installed: Int) -> String {
        let time = ISO8601DateFormatter().string(from: Date())
        var parts = ["\(time) \(installed) groups installed"]
        if !report.changedGroups.isEmpty { parts.append("changed: \(list(report.changedGroups))") }
        if !report.removedGroups.isEmpty { parts.append("no longer available: \(list(report.removedGroups))") }
        if report.isEmpty {
            parts.append("up to date")
        } else {
            parts.append(
                "\(report.filesDownloaded) files (\(report.bytesDownloaded) bytes) fetched, \(report.filesRemoved) purged"
            )
        }
        if !report.failedFiles.isEmpty {
            parts.append("\(report.failedFiles.count) files failed (tried again next sync)")
        }
        return parts.joined(separator: "; ")
    }
}
