import Foundation

extension StickerLibrary {
    /// Brings the installed groups up to date: one revalidation of their versions per 100 groups (a 304 when none
    /// moved), then one request per group that changed and only the images it did not have; a group left pending by
    /// an earlier install is finished. A group no longer in the view, or locked (a refund, an expired subscription),
    /// leaves the installed set and is named in `removedGroups`.
    /// - Throws: `StickerClientError`, or `CancellationError`; what was kept stays kept.
    @discardableResult
    public func sync() async throws -> Report {
        let state = folder.libraryState(view: view.key)
        let ids = state.installed.map(\.group.id) + state.pending.keys.sorted().filter { state.group($0) == nil }
        guard !ids.isEmpty else { return Report() }
        // The service's word on each group: its summary, absent when the view no longer shows it.
        var current: [String: GroupSummary] = [:]
        var saved: (ids: [String], etag: String?)?
        for start in stride(from: 0, to: ids.count, by: Self.idsPerRequest) {
            let chunk = Array(ids[start..<min(start + Self.idsPerRequest, ids.count)])
            // One ETag is kept, for a library of up to 100 groups: a larger one revalidates each chunk anew.
            let etag = chunk == state.etagIds ? state.etag : nil
            switch try await service.versions(of: chunk, view: view, etag: etag) {
            case .notModified:
                // Nothing moved since the answer that ETag names, which this library applied (or keeps pending).
                guard !chunk.contains(where: { state.pending[$0] != nil }) else {
                    for id in chunk { current[id] = state.newest(id)?.summary }
                    break
                }
                return Report()
            case .value(let page, let etag):
                guard page.groups.allSatisfy({ chunk.contains($0.id) }),
                    Set(page.groups.map(\.id)).count == page.groups.count
                else { throw StickerClientError.invalidAnswer("versions of groups not asked about, or twice") }
                for summary in page.groups { current[summary.id] = summary }
                if chunk.count == ids.count { saved = (chunk, etag) }
            }
        }
        let gone = Set(ids.filter { current[$0] == nil || current[$0]?.locked == true })
        var changed: [(group: ManifestGroup, version: String)] = []
        for id in ids where !gone.contains(id) {
            guard let summary = current[id], state.group(id)?.version != summary.version else { continue }
            if let pending = state.pending[id], pending.version == summary.version {
                changed.append((pending.group, pending.version))
                continue
            }
            let (group, version) = try await service.versionedGroup(id, view: view)
            guard group.id == id, !group.locked else { continue }
            try Self.check(group)
            changed.append((group, version ?? summary.version))
        }
        var report = try await keep(changed, installing: false)
        report.changedGroups = changed.map(\.group.id)
        let (folder, saving) = (self.folder, saved)
        let (leaving, purged) = try await changing { state in
            let leaving = state.installed.map(\.group.id).filter(gone.contains)
            state.installed.removeAll { gone.contains($0.group.id) }
            for id in gone { state.pending[id] = nil }
            if let saving { (state.etagIds, state.etag) = (saving.ids, saving.etag) }
            return (leaving, Self.purge(folder, keeping: state.referencedFiles))
        }
        (report.removedGroups, report.filesRemoved) = (leaving, report.filesRemoved + purged)
        return report
    }

    /// Groups one revalidation asks about: the service's bound on `ids`.
    static let idsPerRequest = 100
}

extension InstalledGroup {
    /// What the index said of the group when it was fetched: enough for a sync to tell it did not move.
    var summary: GroupSummary {
        GroupSummary(
            id: group.id, name: group.name, sizeClass: group.sizeClass, flags: group.flags, position: group.position,
            locked: group.locked, productId: group.productId, cover: group.cover, stickerCount: group.stickers.count,
            animated: group.stickers.contains { $0.animated }, version: version)
    }
}
