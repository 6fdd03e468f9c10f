import Foundation

extension StickerLibrary {
    /// Installs group `id`: fetches it whole (every page) and its images, and keeps it in sync from then on. Installing
    /// an installed group fetches it again only if its version moved. `progress` hears how its downloads go.
    /// - Throws: `StickerClientError.refused` with status 404 when the view does not show the group, 403 and code
    ///   `group_locked` for a premium group the user does not hold (it installs once the purchase is in), and what a
    ///   sync throws.
    @discardableResult
    public func install(
        group id: String, progress: @escaping @Sendable (SyncProgress) -> Void = { _ in }
    ) async throws -> InstalledGroup {
        guard Self.isGroupId(id) else { throw StickerClientError.refused(status: 404, code: "not_found", detail: nil) }
        let (group, version) = try await service.versionedGroup(id, view: view)
        guard group.id == id else { throw StickerClientError.invalidAnswer("group \(id) answered as another") }
        guard !group.locked else {
            throw StickerClientError.refused(
                status: 403, code: "group_locked", detail: "\(id) needs \(group.productId ?? "a purchase")")
        }
        guard let version else { throw StickerClientError.invalidAnswer("group \(id) without a version") }
        try Self.check(group)
        let report = try await keep([(group, version)], progress: progress)
        if let failed = report.failedFiles.values.first { throw failed }
        guard let installed = installed.first(where: { $0.group.id == id }) else {
            throw StickerClientError.invalidAnswer("group \(id) was not kept")
        }
        return installed
    }

    /// Removes group `id` and the images no other installed group shows. Not installed, nothing happens.
    public func uninstall(group id: String) async throws {
        let folder = self.folder
        _ = try await changing { state in
            state.installed.removeAll { $0.group.id == id }
            // An install of it under way (another process's) ends without it.
            state.pending[id] = nil
            return Self.purge(folder, keeping: state.referencedFiles)
        }
    }

    /// Downloads the images of `groups` (each recorded as pending first, so another process's purge keeps them), then
    /// records them installed at their versions; an image that cannot be had leaves its group pending, for the next
    /// sync. Files no group shows any more are removed. `installing`: groups asked for; otherwise groups a sync
    /// brings up to date, kept only while still installed (another process may uninstall one meanwhile, and an
    /// uninstall clears the pending entry, so it is never brought back).
    func keep(
        _ groups: [(group: ManifestGroup, version: String)], installing: Bool = true,
        progress: @escaping @Sendable (SyncProgress) -> Void = { _ in }
    ) async throws -> Report {
        var report = Report()
        guard !groups.isEmpty else { return report }
        try await changing { state in
            for (group, version) in groups
            where installing || state.group(group.id) != nil || state.pending[group.id] != nil {
                state.pending[group.id] = InstalledGroup(group: group, version: version, installedAt: Date())
            }
        }
        let wanted = groups.flatMap { LibraryState.assets(of: $0.group) }
        let missing = Dictionary(wanted.map { ($0.sha256, $0) }, uniquingKeysWith: { first, _ in first }).values
            .filter { !folder.has($0) }
        let outcome = try await download(Array(missing), into: folder, report: progress)
        (report.filesDownloaded, report.bytesDownloaded) = (missing.count - outcome.failed.count, outcome.bytes)
        report.failedFiles = outcome.failed
        let (files, failed) = (folder, Set(outcome.failed.keys))
        report.filesRemoved = try await changing { state in
            for (group, version) in groups where state.pending[group.id] != nil {
                guard LibraryState.assets(of: group).allSatisfy({ !failed.contains($0.sha256) }) else { continue }
                state.pending[group.id] = nil
                let kept = InstalledGroup(group: group, version: version, installedAt: Date())
                if let at = state.installed.firstIndex(where: { $0.group.id == group.id }) {
                    state.installed[at] = kept
                } else {
                    state.installed.append(kept)
                }
            }
            return Self.purge(files, keeping: state.referencedFiles)
        }
        return report
    }

    /// Removes the images in `folder` that `keeping` does not name; how many. Under the folder's lock only.
    static func purge(_ folder: LocalCatalog, keeping: Set<String>) -> Int {
        var removed = 0
        for name in folder.fileNames() where !name.hasPrefix(".") && !keeping.contains(name) {
            if unlink(folder.filesDirectory.appending(path: name).path) == 0 { removed += 1 }
        }
        return removed
    }

    /// Refuses a group that names a sticker twice (a lying service could make one group of 100,000 copies).
    static func check(_ group: ManifestGroup) throws {
        try Manifest.unique(group.stickers.map(\.id), "a sticker in group \(group.id.prefix(64))")
    }

    /// A group id as the service makes them: 1 to 64 lowercase letters, digits and inner dashes.
    static func isGroupId(_ id: String) -> Bool {
        let bytes = Array(id.utf8)
        return (1...64).contains(bytes.count) && bytes.first != 0x2D && bytes.last != 0x2D
            && bytes.allSatisfy { (0x61...0x7A).contains($0) || (0x30...0x39).contains($0) || $0 == 0x2D }
    }
}
