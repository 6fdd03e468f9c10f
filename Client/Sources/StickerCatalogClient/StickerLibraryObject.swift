#if canImport(Combine)
    import Combine
    import Foundation

    /// `StickerLibraryModel` for SwiftUI on iOS 16, where `@Observable` is not available: the same index, installed
    /// groups and installs under way, published as an `ObservableObject`.
    @MainActor
    public final class StickerLibraryObject: ObservableObject {
        @Published public private(set) var groups: [GroupSummary] = []
        @Published public private(set) var hasMore = true
        @Published public private(set) var installed: [InstalledGroup]
        @Published public private(set) var installing: [String: Double] = [:]
        @Published public private(set) var error: StickerClientError?
        public let library: StickerLibrary
        private var next: String?

        public init(library: StickerLibrary) {
            self.library = library
            installed = library.installed
        }

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
