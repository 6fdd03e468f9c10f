import Foundation
import HTTPTypes
import OpenAPIRuntime
import Testing

@testable import StickerCatalogClient

/// `follow()` on a fake clock: no storm against a service that refuses streams, is down, or lost a replica.
@Suite struct FollowTests {
    /// Runs `follow()` until the fake clock passes `limit`; the times (on that clock) of each request to `path`.
    static func follow(_ service: MemoryService, for limit: Duration, path: String) async -> [Duration] {
        let clock = FakeClock(limit: limit)
        let times = Times()
        let handler = service.handler
        service.handler = { request, number in
            if request.path?.hasPrefix(path) == true { times.add(clock.now) }
            return handler(request, number)
        }
        await StickerSync.testing(service, clock: clock).follow(onSync: { _ in })
        return times.all
    }

    @Test("A service refusing streams for 10 minutes with Retry-After 5 gets at most one attempt per 5 s")
    func refusedStreams() async {
        // Setup
        let service = MemoryService()
        service.handler = { request, _ in
            request.path?.hasPrefix("/v1/events") == true
                ? MemoryService.refusal(.serviceUnavailable, code: "too_many_streams", retryAfter: "5") : nil
        }
        // Action
        let times = await Self.follow(service, for: .seconds(600), path: "/v1/events")
        // Check
        let gaps = zip(times.dropFirst(), times).map { $0 - $1 }
        // Retry-After is a floor under a growing backoff: never sooner than 5 s, fewer as failures go on.
        #expect(times.count >= 5 && times.count <= 121 && gaps.allSatisfy { $0 >= .seconds(5) })
    }

    @Test("A service answering 503 Retry-After: 0 for 10 minutes gets at most 15 requests")
    func retryAfterZero() async {
        // Setup: every request refused with Retry-After: 0; the jitter pinned to its middle, so the count is exact.
        let service = MemoryService()
        service.handler = { _, _ in MemoryService.refusal(.serviceUnavailable, code: "unavailable", retryAfter: "0") }
        let clock = FakeClock(limit: .seconds(600))
        let sync = StickerSync.testing(service, clock: clock) {
            $0.backoff.random = { ($0.lowerBound + $0.upperBound) / 2 }
        }
        // Action
        await sync.follow(onSync: { _ in })
        // Check
        #expect(service.requests.count <= 15, "\(service.requests.count) requests in 600 s")
        #expect(service.requests.count >= 5, "it keeps trying: \(service.requests.count) requests")
    }

    @Test("Backoff settings out of range wait zero or more, never trap")
    func badSettings() {
        var backoff = Backoff()
        (backoff.base, backoff.maximum, backoff.reconnectWindow) = (.seconds(-1), .seconds(-5), .seconds(-10))
        for failures in [-3, 0, 1, 5, 100] { #expect(backoff.delay(after: failures) == .zero) }
        #expect(backoff.reconnect(retry: .seconds(-2)) == .zero)
        backoff.maximum = .seconds(Int64.max)
        #expect(backoff.delay(after: 200) <= .seconds(86_400))
    }

    @Test("A service down for an hour gets about 30 attempts")
    func downForAnHour() async {
        // Setup: every request fails to connect.
        let service = MemoryService()
        service.handler = { _, _ in nil }
        let failing = Failing(base: service)
        // Action
        let clock = FakeClock(limit: .seconds(3600))
        await StickerSync.testing(failing, clock: clock).follow(onSync: { _ in })
        // Check
        #expect(failing.attempts >= 10 && failing.attempts <= 45, "\(failing.attempts) attempts")
    }

    /// An event stream that opens and ends at once: a replica that stopped.
    static func dropping(_ request: HTTPRequest, _: Int) -> (HTTPResponse, HTTPBody?)? {
        guard request.path?.hasPrefix("/v1/events") == true else { return nil }
        return (HTTPResponse(status: .ok, headerFields: [.contentType: "text/event-stream"]), HTTPBody())
    }

    @Test("200 clients that lost a replica at one instant spread their reconnects over the window")
    func spread() async {
        // Setup: a service whose stream drops as soon as it is open (an empty catalog: the syncs before are cheap).
        let service = MemoryService(stickers: 0)
        service.handler = Self.dropping
        // Action: each client follows until its first wait (the clock's limit ends follow() there), one after another:
        // the waits are each client's own draw, and 200 syncs at once would hold both cores' threads in fsync.
        var waits: [Duration] = []
        for _ in 0..<200 {
            let clock = FakeClock(limit: .nanoseconds(1))
            await StickerSync.testing(service, clock: clock).follow()
            if let wait = clock.waits.first { waits.append(wait) }
        }
        // Check: every client waited, within the 10 s window, no one-second burst over a quarter of them.
        var perSecond = [Int: Int]()
        for wait in waits { perSecond[Int(wait.components.seconds), default: 0] += 1 }
        let burst = perSecond.values.max() ?? 0
        #expect(waits.count == 200 && waits.allSatisfy { $0 <= .seconds(10) })
        #expect(burst <= 50 && perSecond.count >= 8, "reconnects per second: \(perSecond.sorted { $0.key < $1.key })")
    }

    @Test("Back in the foreground, a sync that follows syncs at once; once it stops following, nothing is asked")
    func foregroundResync() async throws {
        // Setup: a stream that stays open and says nothing, and a test app's foreground notification.
        let service = MemoryService()
        service.handler = { request, _ in
            guard request.path?.hasPrefix("/v1/events") == true else { return nil }
            let silent = AsyncStream<ArraySlice<UInt8>> { _ in }
            return (
                HTTPResponse(status: .ok, headerFields: [.contentType: "text/event-stream"]),
                HTTPBody(silent, length: .unknown, iterationBehavior: .single)
            )
        }
        let foreground = Notification.Name("test-foreground-\(UUID())")
        let sync = StickerSync.testing(service) { $0.foregroundNotifications = [foreground] }
        let following = Task { await sync.follow() }
        #expect(await Usage.eventually { service.count("/v1/events") == 1 })
        #expect(service.count("/v1/manifest/changes") == 0)
        // Action
        NotificationCenter.default.post(name: foreground, object: nil)
        // Check: one sync (the change feed, from the folder synced before), the stream left as it was.
        #expect(await Usage.eventually { service.count("/v1/manifest/changes") == 1 })
        following.cancel()
        await following.value
        let asked = service.requests.count
        NotificationCenter.default.post(name: foreground, object: nil)
        try await Task.sleep(for: .milliseconds(200))
        #expect(service.requests.count == asked)
    }
}

final class Times: @unchecked Sendable {
    private let lock = NSLock()
    private var times: [Duration] = []
    func add(_ time: Duration) { lock.withLock { times.append(time) } }
    var all: [Duration] { lock.withLock { times } }
}

/// A transport whose every request fails as a refused connection does; it counts them.
final class Failing: ClientTransport, @unchecked Sendable {
    let base: MemoryService
    private let lock = NSLock()
    private var count = 0
    init(base: MemoryService) { self.base = base }
    var attempts: Int { lock.withLock { count } }
    func send(
        _ request: HTTPRequest, body: HTTPBody?, baseURL: URL, operationID: String
    ) async throws -> (HTTPResponse, HTTPBody?) {
        lock.withLock { count += 1 }
        throw POSIXError(.ECONNREFUSED)
    }
}
