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

    @Test("1,000 clients that lost a replica at one instant spread their reconnects")
    func spread() {
        // Action: each client's first wait after a stream that was up dropped.
        let waits = (0..<1000).map { _ in Backoff().reconnect(retry: .seconds(3)) }
        // Check: the largest one-second burst.
        var perSecond = [Int: Int]()
        for wait in waits { perSecond[Int(wait.components.seconds), default: 0] += 1 }
        let burst = perSecond.values.max() ?? 0
        print("largest one-second burst of 1,000 reconnects: \(burst)")
        #expect(burst <= 200 && waits.allSatisfy { $0 <= .seconds(10) })
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
