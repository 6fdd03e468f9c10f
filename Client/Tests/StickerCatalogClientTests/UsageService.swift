import Foundation
import HTTPTypes
import OpenAPIRuntime
import Testing

@testable import StickerCatalogClient

/// `POST /v1/usage` in memory, in front of a `MemoryService` for the rest: every batch it was sent (on arrival) and
/// every request, answered by `answer` (by the request's number, from 1; nil: 202), and the requests whose numbers are
/// `held` kept unanswered until `release`d.
final class UsageService: ClientTransport, @unchecked Sendable {
    /// One event as the service read it.
    struct Sent: Decodable, Equatable {
        var sticker: String
        var action: String
        var at: String
    }
    private struct Batch: Decodable {
        var events: [Sent]
    }

    let catalog = MemoryService()
    var answer: @Sendable (Int) -> (HTTPResponse, HTTPBody?)? = { _ in nil }
    private let lock = NSLock()
    private var sent: [[Sent]] = []
    private var seen: [HTTPRequest] = []
    private var held: Set<Int> = []
    private var waiting: [Int: CheckedContinuation<Void, Never>] = [:]
    private var done = 0

    var batches: [[Sent]] { lock.withLock { sent } }
    var events: [Sent] { batches.flatMap { $0 } }
    var requests: [HTTPRequest] { lock.withLock { seen } }
    /// Requests answered.
    var answered: Int { lock.withLock { done } }

    func hold(_ numbers: Set<Int>) { lock.withLock { held.formUnion(numbers) } }

    func release(_ number: Int) {
        let waiter = lock.withLock { () -> CheckedContinuation<Void, Never>? in
            held.remove(number)
            return waiting.removeValue(forKey: number)
        }
        waiter?.resume()
    }

    func send(
        _ request: HTTPRequest, body: HTTPBody?, baseURL: URL, operationID: String
    ) async throws -> (HTTPResponse, HTTPBody?) {
        guard request.path == "/v1/usage", let body else {
            return try await catalog.send(request, body: body, baseURL: baseURL, operationID: operationID)
        }
        let batch = try JSONDecoder().decode(Batch.self, from: try await Data(collecting: body, upTo: 1 << 20))
        let number = lock.withLock { () -> Int in
            (sent, seen) = (sent + [batch.events], seen + [request])
            return sent.count
        }
        await withCheckedContinuation { continuation in
            let wait = lock.withLock { () -> Bool in
                guard held.contains(number) else { return false }
                waiting[number] = continuation
                return true
            }
            if !wait { continuation.resume() }
        }
        defer { lock.withLock { done += 1 } }
        return answer(number) ?? MemoryService.json(["received": batch.events.count], status: .accepted)
    }
}

/// Helpers of the usage tests.
enum Usage {
    /// A sync of `folder` against `service`, waiting with `sleep`.
    static func sync(
        _ service: UsageService, folder: URL = StickerSync.temporaryFolder(), credentials: Credentials? = nil,
        sleep: @escaping @Sendable (Duration) async throws -> Void, _ configure: (inout SyncOptions) -> Void = { _ in }
    ) -> StickerSync {
        var options = SyncOptions()
        configure(&options)
        return StickerSync(
            service: URL(string: "http://stickers.test")!, folder: LocalCatalog(directory: folder),
            credentials: credentials, options: options, transport: service, sleep: sleep)
    }

    /// `clock`'s waits, apart from the recorder's minute, which lasts until cancelled: only a sync sends.
    static func noTimer(_ clock: FakeClock) -> @Sendable (Duration) async throws -> Void {
        { duration in
            if duration == UsageRecorder.delay { try await Task.sleep(for: .seconds(3600)) }
            try await clock.sleep(duration)
        }
    }

    /// `clock`'s waits, the recorder's minute lasting until `gate` opens: what is recorded before goes in one batch.
    static func gated(_ clock: FakeClock, _ gate: Gate) -> @Sendable (Duration) async throws -> Void {
        { duration in
            while duration == UsageRecorder.delay, !gate.isOpen { try await Task.sleep(for: .milliseconds(2)) }
            try await clock.sleep(duration)
        }
    }

    /// The queue of `sync`'s folder.
    static func queue(_ folder: URL) -> UsageQueue {
        UsageQueue(folder: folder, lockWait: .seconds(5), sleep: { try await Task.sleep(for: $0) })
    }

    /// `count` sticker ids.
    static func stickers(_ count: Int) -> [String] { (0..<count).map { _ in UUID().uuidString.lowercased() } }

    /// Waits, in real time, until `condition` holds, at most `seconds`; whether it did.
    static func eventually(_ seconds: Int = 10, _ condition: @Sendable () -> Bool) async -> Bool {
        let end = ContinuousClock.now + .seconds(seconds)
        while !condition() {
            guard ContinuousClock.now < end else { return false }
            try? await Task.sleep(for: .milliseconds(5))
        }
        return true
    }
}
