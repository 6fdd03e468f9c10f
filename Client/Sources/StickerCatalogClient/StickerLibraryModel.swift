#if canImport(Observation)
    import Foundation
    import Observation

    /// A `StickerLibrary` for SwiftUI on iOS 17 and later (`StickerLibraryObject` on iOS 16): the group index as far as
    /// it is loaded (`loadMore()` the next page, covers cached), the installed groups, and each install under way with
    /// its progress, changing on the main actor.
    @available(macOS 14, iOS 17, tvOS 17, watchOS 10, *)
    @MainActor @Observable
    public final class StickerLibraryModel {
        /// The index's groups loaded so far, in catalog order.
        public private(set) var groups: [GroupSummary] = []
        /// Whether the index has pages not loaded yet.
        public private(set) var hasMore = true
        public private(set) var installed: [InstalledGroup]
        /// Installs under way: each group's download progress, 0 to 1.
        public private(set) var installing: [String: Double] = [:]
        /// What the last call that failed threw; nil after one that succeeds.
        public private(set) var error: StickerClientError?
        @ObservationIgnored public let library: StickerLibrary
        @ObservationIgnored private var next: String?

        /// Reads the installed groups from disk (a small file); loads nothing from the network.
        public init(library: StickerLibrary) {
            self.library = library
            installed = library.installed
        }

        /// The next page of the index (the first, the first time); nothing when all are loaded.
        public func loadMore(limit: Int = 100) async {
            guard hasMore else { return }
            await run {
                let page = try await self.library.index(limit: limit, after: self.next)
                let known = Set(self.groups.map(\.id))
                self.groups += page.groups.filter { !known.contains($0.id) }
                (self.next, self.hasMore) = (page.next, page.next != nil)
            }
        }

        public func install(_ id: String) async {
            installing[id] = 0
            defer { installing[id] = nil }
            await run {
                try await self.library.install(group: id) { progress in
                    Task { @MainActor [weak self] in
                        if self?.installing[id] != nil { self?.installing[id] = progress.fraction }
                    }
                }
            }
            installed = library.installed
        }

        public func uninstall(_ id: String) async {
            await run { try await self.library.uninstall(group: id) }
            installed = library.installed
        }

        /// Brings the installed groups up to date (`StickerLibrary.sync()`); what it did.
        @discardableResult
        public func sync() async -> StickerLibrary.Report? {
            var report: StickerLibrary.Report?
            await run { report = try await self.library.sync() }
            installed = library.installed
            return report
        }

        private func run(_ body: @MainActor () async throws -> Void) async {
            do {
                try await body()
                error = nil
            } catch let failure as StickerClientError {
                error = failure
            } catch {
                self.error = StickerClientError.from(error) as? StickerClientError
            }
        }
    }
#endif
