import Foundation

extension StickerLibrary {
    /// One page of the group index, its covers kept in the cache (`SyncOptions.cacheBudget`) for a browse grid:
    /// `fileURL(for: group.cover)`.
    public func index(
        matching q: String? = nil, limit: Int? = nil, after cursor: String? = nil
    ) async throws
        -> GroupIndexPage
    {
        let page = try await service.groupIndex(view, q: q, limit: limit, cursor: cursor)
        try Manifest.unique(page.groups.map(\.id), "a group in an index page")
        try await cacheFiles(page.groups.compactMap(\.cover))
        return page
    }

    /// Group `id` whole without installing it: its stickers, and its cover and thumbnails kept in the cache
    /// (`fileURL(for: sticker.thumbnail)`), least recently used out first; a locked group lists its cover only.
    public func preview(group id: String) async throws -> ManifestGroup {
        guard Self.isGroupId(id) else { throw StickerClientError.refused(status: 404, code: "not_found", detail: nil) }
        let group = try await service.group(id, view: view)
        guard group.id == id else { throw StickerClientError.invalidAnswer("group \(id) answered as another") }
        try Self.check(group)
        try await cacheFiles([group.cover].compactMap { $0 } + group.stickers.map(\.thumbnail))
        return group
    }

    /// Keeps `assets` in the cache, within the budget: an installed one is not copied, a cached one is marked used,
    /// the others are fetched once the least recently used files have made room for them; those past the budget on
    /// their own are not fetched. The cache never holds more than the budget, evicting under its own lock.
    func cacheFiles(_ assets: [AssetLink]) async throws {
        let budget = max(options.cacheBudget, 0)
        var (seen, wanted, bytes) = (Set<String>(), [AssetLink](), 0)
        let now = Date()
        for asset in assets where seen.insert(asset.sha256).inserted && !folder.has(asset) {
            if cache.has(asset) {
                Self.markUsed(cache.filePath(for: asset), at: now)
            } else if LocalCatalog.isDigest(asset.sha256), asset.bytes >= 0, bytes + asset.bytes <= budget {
                wanted.append(asset)
                bytes += asset.bytes
            }
        }
        let (cache, needed) = (cache, bytes)
        try await FolderLock.holding(
            folder.directory, named: ".cache.lock", waitingAtMost: options.lockWait, sleep: sleep
        ) { Self.evict(cache, making: needed, within: budget) }
        guard !wanted.isEmpty else { return }
        _ = try await download(wanted, into: cache)
        // Another process may have cached its own meanwhile.
        try await FolderLock.holding(
            folder.directory, named: ".cache.lock", waitingAtMost: options.lockWait, sleep: sleep
        ) { Self.evict(cache, making: 0, within: budget) }
    }

    /// The bytes the cache holds now.
    public nonisolated var cachedBytes: Int { Self.cached(cache).reduce(0) { $0 + $1.bytes } }

    /// Removes the least recently used cached files until `needed` more bytes fit in `budget`.
    static func evict(_ cache: LocalCatalog, making needed: Int, within budget: Int) {
        let files = cached(cache).sorted { $0.used < $1.used }
        var total = files.reduce(0) { $0 + $1.bytes }
        for file in files where total + needed > budget {
            if unlink(file.path) == 0 { total -= file.bytes }
        }
    }

    /// The cache's files: path, size, and when last used (their modification time, moved on each use).
    static func cached(_ cache: LocalCatalog) -> [(path: String, bytes: Int, used: Double)] {
        cache.fileNames().compactMap { name in
            let path = cache.filesDirectory.appending(path: name).path
            var info = stat()
            guard lstat(path, &info) == 0, (info.st_mode & S_IFMT) == S_IFREG else { return nil }
            #if canImport(Darwin)
                let used = Double(info.st_mtimespec.tv_sec) + Double(info.st_mtimespec.tv_nsec) / 1e9
            #else
                let used = Double(info.st_mtim.tv_sec) + Double(info.st_mtim.tv_nsec) / 1e9
            #endif
            return (path, Int(clamping: info.st_size), used)
        }
    }

    /// Moves a cached file's time of use to `date`.
    static func markUsed(_ path: String, at date: Date) {
        let seconds = date.timeIntervalSince1970
        var times = [
            timeval(tv_sec: Int(seconds), tv_usec: .init((seconds - seconds.rounded(.down)) * 1e6)),
            timeval(tv_sec: Int(seconds), tv_usec: .init((seconds - seconds.rounded(.down)) * 1e6)),
        ]
        _ = utimes(path, &times)
    }
}
