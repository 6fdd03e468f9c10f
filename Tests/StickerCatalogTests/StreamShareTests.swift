import CatalogApp
import CatalogCore
import CatalogHTTP
import CatalogSearch
import CatalogServices
import CatalogStore
import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import Testing

/// `/v1/events` shared between clients over a real socket: a user's share, an address's share (behind a trusted
/// proxy too), streams that end with their user's token, and reconnection delays that differ.
@Suite struct StreamShareTests {
    /// An event stream over a raw socket, keeping everything that arrived.
    final class Opened: @unchecked Sendable {
        let socket: RawSocket
        private(set) var text = ""

        init(port: Int, headers: [String] = [], path: String = "/v1/events") throws {
            socket = try RawSocket(port: port)
            let head =
                (["GET \(path) HTTP/1.1", "Host: localhost"] + headers).joined(separator: "\r\n") + "\r\n\r\n"
            socket.send(Array(head.utf8))
        }

        /// Waits up to `seconds` for `needle` to have arrived; whether it did.
        func saw(_ needle: String, seconds: Double = 60) async throws -> Bool {
            let deadline = ContinuousClock.now + .milliseconds(Int(seconds * 1000))
            while !text.contains(needle), ContinuousClock.now < deadline {
                let got = socket.receiveAvailable()
                if got == "<closed>" { break }
                text += got
                if got.isEmpty { try await Task.sleep(for: .milliseconds(20)) }
            }
            return text.contains(needle)
        }

        /// The answer's status code, once its status line came.
        func status() async throws -> String {
            _ = try await saw("\r\n")
            return String(text.dropFirst("HTTP/1.1 ".count).prefix(3))
        }
    }

    /// A stream opened with `headers`, and its status code.
    static func open(
        _ port: Int, _ headers: [String] = [], path: String = "/v1/events"
    ) async throws -> (Opened, String) {
        let stream = try Opened(port: port, headers: headers, path: path)
        return (stream, try await stream.status())
    }

    @Test func oneAddressGetsItsShareAndATrustedProxysForwardedForNamesTheClient() async throws {
        let options: @Sendable (inout ServiceOptions) -> Void = {
            $0.streams.perAddress = 2
            $0.server.trustedProxies = TrustedProxies([AddressRange("127.0.0.1/32")!])
        }
        try await withApp(demo: true, live: true, options: options) { client, _ in
            let port = try #require(client.port)
            // Setup: two clients behind the proxy (this test's loopback) and the proxy itself.
            var held: [Opened] = []
            for forwarded in ["203.0.113.7", "198.51.100.1, 203.0.113.7", "198.51.100.1", "", ""] {
                let (stream, status) = try await Self.open(
                    port, forwarded.isEmpty ? [] : ["X-Forwarded-For: \(forwarded)"])
                #expect(status == "200", "\(forwarded)")
                held.append(stream)
            }
            // Action: a third stream of each.
            let (refused, status) = try await Self.open(port, ["X-Forwarded-For: 192.0.2.9, 203.0.113.7"])
            let (direct, directStatus) = try await Self.open(port)
            // Check: 429 with the address's code and a Retry-After; a client elsewhere still gets in.
            #expect(status == "429" && directStatus == "429")
            #expect(try await refused.saw("too_many_address_streams") && refused.text.contains("Retry-After: 30"))
            #expect(try await direct.saw("too_many_address_streams"))
            #expect(try await Self.open(port, ["X-Forwarded-For: 192.0.2.200"]).1 == "200")
            let metrics = String(buffer: try await client.execute(uri: "/metrics", method: .get).body)
            #expect(metrics.contains(#"event_streams_refused_total{reason="address"} 2"#))
            withExtendedLifetime(held) {}
        }
    }

    @Test func oneUserGetsTheirShareAndOthersStillGetIn() async throws {
        let purchasing = try await Purchasing.options()
        try await withApp(
            demo: true, live: true,
            options: {
                purchasing(&$0)
                $0.streams.perUser = 2
            }
        ) { client, _ in
            let port = try #require(client.port)
            let ola = "Authorization: " + ((try await Purchasing.user("ola"))[.authorization] ?? "")
            let bo = "Authorization: " + ((try await Purchasing.user("bo"))[.authorization] ?? "")
            let first = try await Self.open(port, [ola])
            let second = try await Self.open(port, [ola])
            let (third, status) = try await Self.open(port, [ola])
            #expect(first.1 == "200" && second.1 == "200" && status == "429")
            #expect(try await third.saw("too_many_user_streams"))
            withExtendedLifetime((first, second)) {}
            #expect(try await Self.open(port, [bo]).1 == "200")
            #expect(try await Self.open(port).1 == "200")
        }
    }

    @Test func aBrowsersTicketOpensOneStreamAsItsUser() async throws {
        let purchasing = try await Purchasing.options()
        try await withApp(
            demo: true, live: true,
            options: {
                purchasing(&$0)
                $0.streams.perUser = 1
            }
        ) { client, _ in
            let port = try #require(client.port)
            let ola = try await Purchasing.user("ola")
            // Action: a page asks for a ticket with its token, then opens the stream with the ticket alone.
            let asked = try await client.execute(uri: "/v1/me/event-ticket", method: .post, headers: ola)
            #expect(asked.status == .ok && asked.headers[.cacheControl] == "no-store")
            let ticket = try #require(asked.json["ticket"] as? String)
            // With a token as well, the token decides and the ticket is not spent; a malformed ticket is a 400.
            let bo = "Authorization: " + ((try await Purchasing.user("bo"))[.authorization] ?? "")
            let (asBo, boStatus) = try await Self.open(port, [bo], path: "/v1/events?ticket=\(ticket)")
            #expect(boStatus == "200")
            #expect(try await Self.open(port, path: "/v1/events?ticket=not%20one").1 == "400")
            let (stream, status) = try await Self.open(port, path: "/v1/events?ticket=\(ticket)")
            #expect(status == "200")
            #expect(try await stream.saw(": connected"))
            // Check: the stream is ola's (her one stream is taken), and the ticket is spent.
            let (_, theirs) = try await Self.open(port, ["Authorization: " + (ola[.authorization] ?? "")])
            #expect(theirs == "429")
            let (again, spent) = try await Self.open(port, path: "/v1/events?ticket=\(ticket)")
            #expect(spent == "401")
            #expect(try await again.saw("invalid_ticket"))
            // Nobody gets a ticket without a token.
            let anonymous = try await client.execute(uri: "/v1/me/event-ticket", method: .post)
            #expect(anonymous.status == .unauthorized)
            withExtendedLifetime((stream, asBo)) {}
        }
    }

    @Test func aStreamEndsWhenItsUsersTokenExpiresAndAnExpiredTokenOpensNone() async throws {
        try await withApp(demo: true, live: true, options: try await Purchasing.options()) { client, _ in
            let port = try #require(client.port)
            // Setup: a token good for a few more seconds; the stream's lifetime is the default hour. On a busy machine
            // the token may expire before the stream opens (refused, rightly): then a longer one is tried.
            var lifetime = 3
            while true {
                let expiry = ContinuousClock.now + .seconds(lifetime)
                let token = try await UserTokens.sign(
                    user: "ola", secret: Purchasing.userSecret, lifetime: TimeInterval(lifetime))
                let (stream, status) = try await Self.open(port, ["Authorization: Bearer \(token)"])
                if status == "401", ContinuousClock.now >= expiry - .seconds(1), lifetime < 48 {
                    lifetime *= 2
                    continue
                }
                #expect(status == "200")
                #expect(try await stream.saw(": connected"))
                // Check: it ends cleanly (the last chunk) when the token does, not before, and long before the stream's
                // hour (a minute's slack: a busy suite can be that late to read it).
                #expect(try await stream.saw("0\r\n\r\n", seconds: Double(lifetime) + 60))
                #expect(ContinuousClock.now >= expiry - .seconds(1))
                break
            }
            // A token already past its exp (still within the clock skew other requests allow) opens no stream.
            let stale = try await UserTokens.sign(user: "ola", secret: Purchasing.userSecret, lifetime: -5)
            let (_, refused) = try await Self.open(port, ["Authorization: Bearer \(stale)"])
            #expect(refused == "401")
        }
    }

    @Test func streamsOpenedTogetherAskToBeRetriedAfterDifferentDelays() async throws {
        try await withApp(demo: true, live: true) { client, _ in
            let port = try #require(client.port)
            var retries: [Int] = []
            for _ in 0..<6 {
                let (stream, _) = try await Self.open(port)
                #expect(try await stream.saw(": connected"))
                let line = stream.text.components(separatedBy: "retry: ").last?.split(separator: "\n").first
                retries += line.flatMap { Int($0) }.map { [$0] } ?? []
            }
            #expect(retries.count == 6 && retries.allSatisfy { (1_000...5_000).contains($0) })
            #expect(Set(retries).count > 1, "\(retries)")
        }
    }
}
