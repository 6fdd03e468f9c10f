import CatalogApp
import CatalogCore
import CatalogHTTP
import CatalogSearch
import CatalogServices
import CatalogStore
import Foundation
import Hummingbird
import HummingbirdTesting
import Synchronization
import TestSupport
import Testing

/// Wrong admin tokens are throttled per source: past the limit in a window, a source is refused (429 with
/// Retry-After) before its token is looked up, until its window ends; other sources are untouched; memory is bounded.
@Suite struct FailedAttemptsTests {
    /// A clock the test moves by hand.
    static func address(_ text: String) -> ClientAddress { ClientAddress(IPAddress(text)!) }

    @Test func aSourcePastTheLimitWaitsOutItsWindowAndOthersAreUntouched() {
        // Setup
        let clock = FakeClock()
        let attempts = FailedAttempts(limit: 3, window: .seconds(60), now: { clock.now })
        let (guesser, other) = (Self.address("192.0.2.7"), Self.address("198.51.100.1"))
        // Action
        for _ in 0..<3 {
            #expect(attempts.wait(for: guesser) == nil)
            attempts.fail(guesser)
        }
        // Check: refused for the rest of its window, then free again; the other address never was.
        clock.advance(.seconds(20))
        #expect(attempts.wait(for: guesser) == .seconds(40))
        #expect(attempts.wait(for: other) == nil)
        clock.advance(.seconds(40))
        #expect(attempts.wait(for: guesser) == nil)
    }

    @Test func trackedSourcesAreBounded() {
        let clock = FakeClock()
        let attempts = FailedAttempts(limit: 1, window: .seconds(60), capacity: 100, now: { clock.now })
        for index in 0..<1000 { attempts.fail(Self.address("10.0.\(index / 256).\(index % 256)")) }
        let refused = (0..<1000).filter { attempts.wait(for: Self.address("10.0.\($0 / 256).\($0 % 256)")) != nil }
            .count
        #expect(refused > 0 && refused <= 100)
        // The newest are the ones kept.
        #expect(attempts.wait(for: Self.address("10.0.3.231")) != nil)
    }

    @Test func wrongTokensFromOneAddressAreRefusedWith429BeforeAnyLookup() async throws {
        try await withApp(demo: true, live: true) { client, _ in
            // Setup: ten wrong tokens from 127.0.0.1.
            for attempt in 0..<10 {
                let response = try await client.execute(
                    uri: "/v1/admin/groups", method: .get, headers: [.authorization: "Bearer wrong-\(attempt)"])
                #expect(response.status == .unauthorized)
            }
            // Action: the eleventh, and then the right token from the same address.
            let refused = try await client.execute(
                uri: "/v1/admin/groups", method: .get, headers: [.authorization: "Bearer wrong-10"])
            let right = try await client.execute(uri: "/v1/admin/groups", method: .get, headers: admin)
            // Check: both refused for the window; anonymous client routes are untouched.
            #expect(refused.status == .tooManyRequests && refused.json["code"] as? String == "too_many_attempts")
            #expect(Int(refused.headers[.retryAfter] ?? "") ?? 0 > 0)
            #expect(right.status == .tooManyRequests)
            #expect(try await client.execute(uri: "/v1/manifest", method: .get).status == .ok)
        }
    }
}
