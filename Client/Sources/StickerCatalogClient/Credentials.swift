import Foundation

/// Where a signed-in user's token comes from: asked for before requests, and asked again, once, with `refresh` after
/// the service answers 401 (an expired token), so a long `follow()` never spins on one.
public struct Credentials: Sendable {
    let provide: @Sendable (_ refresh: Bool) async throws -> String?
    /// Refreshes in flight and done, shared by every request that holds these credentials: concurrent 401s share one.
    let refreshes = Refreshes()

    /// `provide(refresh)` gives the current token; with `refresh`, a new one (nil: sign out, the catalog shows free
    /// groups).
    public init(_ provide: @escaping @Sendable (_ refresh: Bool) async throws -> String?) {
        self.provide = provide
    }

    /// The same token every time.
    public static func token(_ token: String) -> Credentials {
        Credentials { _ in token }
    }

    /// The token to send and the refresh it came from. With `refresh` (after a 401 to a token of refresh `seen`), a
    /// new token, unless another request refreshed since `seen`: then that one, so concurrent 401s refresh once.
    /// A provider that throws ends the request as `credentialsUnavailable`, never retried.
    func token(refresh: Bool, seen: Int = 0) async throws -> (token: String?, generation: Int) {
        do {
            // The generation before asking: a token asked for while a refresh ran counts as older than it.
            guard refresh else {
                let generation = refreshes.generation
                return (try await provide(false), generation)
            }
            return try await refreshes.refresh(after: seen) { try await provide(true) }
        } catch is CancellationError {
            throw CancellationError()
        } catch {
            throw StickerClientError.credentialsUnavailable(underlying: UnderlyingError(error))
        }
    }
}

/// One refresh at a time for every request holding the same credentials; each refresh a numbered generation.
/// (An `NSLock`, not `Mutex`: the package's floor is iOS 16.)
final class Refreshes: @unchecked Sendable {
    private let lock = NSLock()
    private var done = 0
    private var token: String?
    private var running: Task<String?, any Error>?

    var generation: Int { lock.withLock { done } }

    /// The token of the first refresh after `seen`: the one running, or the one already done, else a new one.
    func refresh(
        after seen: Int, _ provide: @escaping @Sendable () async throws -> String?
    ) async throws -> (
        token: String?, generation: Int
    ) {
        let (task, generation, known) = lock.withLock { () -> (Task<String?, any Error>?, Int, String?) in
            if let running { return (running, done + 1, nil) }
            if done > seen { return (nil, done, token) }
            let task = Task { try await provide() }
            running = task
            return (task, done + 1, nil)
        }
        guard let task else { return (known, generation) }
        do {
            let token = try await task.value
            lock.withLock {
                if done < generation { (done, self.token) = (generation, token) }
                running = nil
            }
            return (token, generation)
        } catch {
            lock.withLock { running = nil }
            throw error
        }
    }
}
