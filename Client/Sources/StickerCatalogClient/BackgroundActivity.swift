import Foundation

/// Work an app moved to the background should finish, or stop cleanly, rather than be suspended in the middle of.
enum BackgroundActivity {
    /// Runs `body`. On iOS, tvOS, watchOS and visionOS under `ProcessInfo.performExpiringActivity` (which an app
    /// extension may use too, unlike `UIApplication.beginBackgroundTask`): the system keeps the process running while
    /// it lasts and, when it takes the time back, `body` is cancelled (a sync then commits nothing and keeps its files;
    /// it holds no lock while it downloads). Elsewhere `body` runs as it is.
    static func run<T: Sendable>(
        _ reason: String = "Updating stickers", _ body: @escaping @Sendable () async throws -> T
    ) async throws -> T {
        try await $isActive.withValue(true) { try await asserting(reason, body) }
    }

    /// Whether the task runs within `run`, on every platform (so tests on Linux see what an iPhone would).
    @TaskLocal static var isActive = false

    private static func asserting<T: Sendable>(
        _ reason: String, _ body: @escaping @Sendable () async throws -> T
    ) async throws -> T {
        #if os(iOS) || os(tvOS) || os(watchOS) || os(visionOS)
            let task = Task { try await body() }
            let finished = DispatchSemaphore(value: 0)
            ProcessInfo.processInfo.performExpiringActivity(withReason: reason) { expired in
                guard !expired else { return task.cancel() }
                // The assertion lasts while this block runs, on a queue of the system's: until `body` ends.
                finished.wait()
            }
            defer { finished.signal() }
            return try await withTaskCancellationHandler {
                try await task.value
            } onCancel: {
                task.cancel()
            }
        #else
            return try await body()
        #endif
    }
}
