import Foundation
import Logging
import OpenAPIRuntime

/// Keeps a folder in sync with a StickerCatalog service for one view: the manifest the first time (and when a
/// cursor expires), the change feed after; the files downloaded, checked and kept before the new `catalog.json`
/// replaces the old one in one rename, so a reader never sees half a sync, and a killed sync resumes where it was
/// (files already kept are not fetched again). Files no longer named go after `purgeGrace`, never while named.
public actor StickerSync {
    /// What one sync did.
    public struct Report: Sendable, Equatable {
        public var revision: Int
        /// True when the change feed brought the catalog up to date; false when a whole manifest was read.
        public var incremental: Bool
        /// Groups added or changed, and groups gone (a whole manifest lists what differs from the copy before).
        public var changedGroups: [String]
        public var removedGroups: [String]
        public var filesDownloaded: Int
        public var bytesDownloaded: Int
        public var filesRemoved: Int
        /// Files that could not be had, by digest: their stickers show their previous version (or wait), and the next
        /// sync tries them again.
        public var failedFiles: [String: StickerClientError] = [:]

        public var changed: Bool { !changedGroups.isEmpty || !removedGroups.isEmpty }
    }

    /// The folder synced into, readable without the network.
    public nonisolated let folder: LocalCatalog
    public nonisolated let view: CatalogView
    public nonisolated let options: SyncOptions
    let service: CatalogService
    let downloads: Downloads
    let sleep: @Sendable (Duration) async throws -> Void
    let now: @Sendable () -> ContinuousClock.Instant
    let logger: Logger
    let shown: Observed<SyncedCatalog?>
    let statusCell: Observed<SyncStatus>
    /// What `record(_:sticker:)` is told, on its way to the service.
    nonisolated let usage: UsageRecorder
    /// The lifecycle notifications observed (`StickerSync+Lifecycle`).
    let lifecycle = LifecycleObservers()
    /// `follow()` calls running: the app's return to the foreground syncs only while one does.
    var following = 0
    /// The catalog's state as this sync last committed or read it: read again only when another process committed.
    var known: LocalCatalog.State?
    /// The running sync's downloads by bytes, counted within files as they arrive: `ProgressView(sync.progress)`. Its
    /// numbers are `SyncStatus.syncing`'s; it starts again at zero with each sync that downloads.
    public nonisolated let progress = Progress(totalUnitCount: 0)

    /// A logger that writes nothing: the default, so a library says nothing an app did not ask for.
    public static let silent = Logger(label: "StickerCatalogClient", factory: { _ in SwiftLogNoOpLogHandler() })

    /// `credentials` sign the user in (premium groups, purchases); `transport` replaces how requests are sent (tests
    /// hand one that answers from memory; the default is URLSession on Apple platforms and AsyncHTTPClient on Linux);
    /// `middlewares` see every request, image files included, after this library's own (retries, sign-in), as the
    /// generated client's do; `sleep` how waits are waited and `now` what time it is, for deadlines (a test's clock).
    public init(
        service: URL, folder: LocalCatalog, view: CatalogView = CatalogView(), credentials: Credentials? = nil,
        options: SyncOptions = SyncOptions(), logger: Logger = StickerSync.silent,
        transport: (any ClientTransport)? = nil, middlewares: [any ClientMiddleware] = [],
        sleep: @escaping @Sendable (Duration) async throws -> Void = { try await Task.sleep(for: $0) },
        now: @escaping @Sendable () -> ContinuousClock.Instant = { .now }
    ) {
        self.init(
            service: service, folder: folder, view: view, credentials: credentials, options: options, logger: logger,
            transports: transport.map { ($0, $0) } ?? DefaultTransport.pair(options), middlewares: middlewares,
            sleep: sleep, now: now)
    }

    /// The sync's transport and the event stream's.
    typealias Transports = (sync: any ClientTransport, streams: any ClientTransport)

    init(
        service: URL, folder: LocalCatalog, view: CatalogView, credentials: Credentials?, options: SyncOptions,
        logger: Logger, transports: Transports, middlewares: [any ClientMiddleware],
        sleep: @escaping @Sendable (Duration) async throws -> Void,
        now: @escaping @Sendable () -> ContinuousClock.Instant
    ) {
        let middleware = ServiceMiddleware(
            credentials: credentials, attempts: max(options.attempts, 1), backoff: options.backoff,
            sleep: sleep, userAgent: "StickerCatalogClient/\(StickerSync.version)",
            facts: ClientFacts(
                folder: folder.directory, platform: options.platform, appVersion: options.appVersion,
                sendsInstallation: options.sendsInstallationID))
        let service = CatalogService(
            base: service, transport: transports.sync, streamTransport: transports.streams, middleware: middleware,
            middlewares: middlewares)
        (self.service, self.folder, self.view, self.options, self.sleep, self.now, self.logger) = (
            service, folder, view, options, sleep, now, logger
        )
        downloads = Downloads(
            catalog: folder, concurrency: max(options.concurrency, 1), largestFile: max(options.largestImage, 0),
            fetch: { asset, sink in
                try await service.file(asset.url, bytes: asset.bytes, into: sink)
            }, bundle: { try await service.bundle($0) })
        let shown = Observed { folder.load() }
        (self.shown, statusCell) = (shown, Observed { Self.settled(folder) })
        usage = Self.usageRecorder(service, folder: folder, options: options, sleep: sleep, logger: logger)
        observeLifecycle()
    }

    deinit { usage.stop() }

    /// This library's version, sent in `User-Agent`.
    public static let version = "0.4.0"

    /// The catalog as last synced, held in memory; nil before a first sync. The first ask reads it from disk off the
    /// caller's thread (at 10,000 stickers a decode of about 14 MB of JSON), once however many ask at once; later asks
    /// return it from memory.
    public nonisolated var snapshot: SyncedCatalog? {
        get async { await shown.load() }
    }

    /// Every new catalog a sync commits, starting with the current one (read from disk off the caller's thread, when
    /// it is not held yet).
    public nonisolated var snapshots: AsyncStream<SyncedCatalog?> { shown.stream() }

    /// Up to date, syncing (with progress) or offline (with the error).
    public nonisolated var status: SyncStatus { statusCell.value }

    /// Every change of `status`, starting with the current one (a slow reader gets the newest).
    public nonisolated var statuses: AsyncStream<SyncStatus> { statusCell.stream() }

    /// The status when no sync runs and none failed, from the bookmark (not the whole catalog: a status line must not
    /// cost a decode of 10,000 stickers).
    private static func settled(_ folder: LocalCatalog) -> SyncStatus {
        folder.bookmark().map {
            .upToDate(revision: $0.revision, at: $0.syncedAt ?? .distantPast, pendingFiles: $0.pending ?? 0)
        } ?? .notSynced
    }

    /// The sync under way and the calls waiting for it: a second call joins it (two syncs of one folder could commit
    /// out of order); it is cancelled only when every call waiting for it has been.
    private var running: (id: UUID, task: Task<Void, Never>, waiting: [UUID: CheckedContinuation<Report, any Error>])?

    /// Brings the folder up to date. A call while a sync runs joins it; another process committing to the same folder
    /// (an app and its extension) is waited for, at most `SyncOptions.lockWait`. A cancelled call returns at once with
    /// `CancellationError`; the sync stops, committing nothing, once no call waits for it. On iOS the sync runs under
    /// an expiring-activity assertion, so an app moved to the background finishes it, or stops it cleanly when the
    /// system takes the time back.
    /// - Throws: `StickerClientError`, or `CancellationError`.
    @discardableResult
    public func sync() async throws -> Report {
        let caller = UUID()
        return try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Report, any Error>) in
                join(caller, continuation)
            }
        } onCancel: {
            Task { await self.leave(caller) }
        }
    }

    /// Adds `caller` to the running sync's waiters, starting one when none runs.
    private func join(_ caller: UUID, _ continuation: CheckedContinuation<Report, any Error>) {
        guard !Task.isCancelled else { return continuation.resume(throwing: CancellationError()) }
        if running == nil {
            let id = UUID()
            let task = Task {
                let result: Result<Report, any Error>
                do {
                    result = .success(try await BackgroundActivity.run { try await self.syncOnce() })
                } catch { result = .failure(error) }
                self.finish(id, result)
            }
            running = (id, task, [:])
        }
        running?.waiting[caller] = continuation
    }

    /// A cancelled caller stops waiting; the sync is cancelled when no one waits for it any more.
    private func leave(_ caller: UUID) {
        guard let continuation = running?.waiting.removeValue(forKey: caller) else { return }
        continuation.resume(throwing: CancellationError())
        if let running, running.waiting.isEmpty {
            running.task.cancel()
            self.running = nil
        }
    }

    /// Hands the sync's result to everyone waiting for it.
    private func finish(_ id: UUID, _ result: Result<Report, any Error>) {
        guard let running, running.id == id else { return }
        self.running = nil
        for continuation in running.waiting.values { continuation.resume(with: result) }
    }

    private func syncOnce() async throws -> Report {
        statusCell.set(.syncing(SyncProgress()))
        let deadline = SyncDeadline(folder.bookmark() == nil ? options.firstSyncDeadline : options.deadline, now: now)
        do {
            let report = try await SyncDeadline.$current.withValue(deadline) { try await syncing() }
            statusCell.set(.upToDate(revision: report.revision, at: Date(), pendingFiles: report.failedFiles.count))
            usage.syncSucceeded()
            return report
        } catch {
            if error is CancellationError || Task.isCancelled {
                statusCell.set(Self.settled(folder))
                throw CancellationError()
            }
            let error = StickerClientError.from(error)
            logger.notice("sync failed", metadata: ["error": "\(error)"])
            statusCell.set(.offline(error, since: Date()))
            throw error
        }
    }
}
