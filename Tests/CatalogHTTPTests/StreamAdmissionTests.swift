import CatalogApp
import CatalogCore
import CatalogHTTP
import CatalogServices
import Foundation
import Testing

/// Who may open an event stream (per user, per address, per replica), who a request comes from behind proxies, and
/// how streams' ends and reconnections are spread: plain logic, no server.
@Suite struct StreamAdmissionTests {
    let home = ClientAddress(IPAddress("192.0.2.1")!)
    let office = ClientAddress(IPAddress("198.51.100.9")!)

    @Test func aUserPastTheirShareIsRefusedAndOthersStillGetIn() throws {
        var admission = StreamAdmission(limits: .init(total: 100, perUser: 2, perAddress: 100))
        try admission.admit(user: "ola", address: home)
        try admission.admit(user: "ola", address: office)
        #expect(throws: StreamAdmission.Refusal.user) { try admission.admit(user: "ola", address: home) }
        try admission.admit(user: "bo", address: home)
        try admission.admit(user: nil, address: home)
        // A stream given back frees its user's place, and counts vanish with their streams.
        admission.release(user: "ola", address: office)
        try admission.admit(user: "ola", address: home)
        #expect(admission.open == 4 && admission.streams(of: "ola") == 2 && admission.streams(from: office) == 0)
    }

    @Test func anAddressPastItsShareIsRefusedWhoeverAsks() throws {
        var admission = StreamAdmission(limits: .init(total: 100, perUser: 8, perAddress: 3))
        try admission.admit(user: nil, address: home)
        try admission.admit(user: "ola", address: home)
        try admission.admit(user: "bo", address: home)
        #expect(throws: StreamAdmission.Refusal.address) { try admission.admit(user: nil, address: home) }
        #expect(throws: StreamAdmission.Refusal.address) { try admission.admit(user: "cy", address: home) }
        try admission.admit(user: nil, address: office)
        #expect(admission.open == 4)
    }

    @Test func theReplicaBoundComesLastAndIsA503() throws {
        var admission = StreamAdmission(limits: .init(total: 2, perUser: 1, perAddress: 5))
        try admission.admit(user: "ola", address: home)
        try admission.admit(user: nil, address: office)
        #expect(throws: StreamAdmission.Refusal.user) { try admission.admit(user: "ola", address: office) }
        #expect(throws: StreamAdmission.Refusal.replica) { try admission.admit(user: nil, address: office) }
        let limits = admission.limits
        #expect(StreamAdmission.Refusal.replica.problem(limits).status == .serviceUnavailable)
        let user = StreamAdmission.Refusal.user.problem(limits)
        #expect(
            user.status == .tooManyRequests && user.code == "too_many_user_streams" && user.headers[.retryAfter] == "30"
        )
        #expect(StreamAdmission.Refusal.address.problem(limits).code == "too_many_address_streams")
    }

    @Test func forwardedForIsBelievedOnlyFromTrustedProxiesAndOnlyAsFarAsThey() throws {
        let proxies = TrustedProxies([try #require(AddressRange("10.0.0.0/8")), try #require(AddressRange("fd00::/8"))])
        let proxy = IPAddress("10.1.2.3")
        let client = { (peer: String, header: [String]) in
            proxies.client(peer: IPAddress(peer), forwardedFor: header)?.description
        }
        // Anyone else's header is ignored; a trusted proxy's names the client it heard from.
        #expect(client("203.0.113.5", ["198.51.100.1"]) == "203.0.113.5")
        #expect(client("10.1.2.3", ["198.51.100.1"]) == "198.51.100.1")
        // A client's own entries (left of the one our proxy wrote) buy it nothing.
        #expect(client("10.1.2.3", ["1.1.1.1, 2.2.2.2", "198.51.100.1, 10.9.9.9"]) == "198.51.100.1")
        #expect(client("10.1.2.3", ["10.0.0.7, 10.9.9.9"]) == "10.0.0.7")
        #expect(client("10.1.2.3", ["garbage, 10.9.9.9"]) == "10.9.9.9")
        #expect(client("10.1.2.3", []) == proxy?.description)
        #expect(client("fd00::1", ["[2001:db8::7]:443"]) == "2001:db8::7")
        #expect(client("10.1.2.3", ["192.0.2.4:8080"]) == "192.0.2.4")
    }

    @Test func addressesAndBlocksParse() throws {
        #expect(IPAddress("::ffff:192.0.2.1") == IPAddress("192.0.2.1"))
        #expect(IPAddress("fe80::1%eth0") == IPAddress("fe80::1"))
        #expect(IPAddress("example.com") == nil && IPAddress("256.1.1.1") == nil)
        let block = try #require(AddressRange("192.168.0.0/16"))
        #expect(block.contains(IPAddress("192.168.200.1")!) && !block.contains(IPAddress("192.169.0.1")!))
        #expect(!block.contains(IPAddress("::1")!))
        #expect(try #require(AddressRange("0.0.0.0/0")).contains(IPAddress("8.8.8.8")!))
        #expect(try #require(AddressRange("127.0.0.1")).contains(IPAddress("127.0.0.1")!))
        #expect(AddressRange("10.0.0.0/33") == nil && AddressRange("10.0.0.0/") == nil && AddressRange("x/8") == nil)
        #expect(try #require(AddressRange("2001:db8::/32")).contains(IPAddress("2001:db8:ffff::1")!))
        // One IPv6 subscriber (a /64) is one client however it hops within it.
        #expect(ClientAddress(IPAddress("2001:db8:1:2::a")!) == ClientAddress(IPAddress("2001:db8:1:2:ffff::b")!))
        #expect(ClientAddress(IPAddress("2001:db8:1:2::a")!) != ClientAddress(IPAddress("2001:db8:1:3::a")!))
        #expect(ClientAddress(IPAddress("2001:db8:1:2::a")!).description == "2001:db8:1:2::/64")
    }

    @Test func streamsOpenedTogetherEndAndComeBackApart() {
        var random = SystemRandomNumberGenerator()
        let lifetimes = (0..<50).map { _ in StreamTiming.lifetime(.seconds(3600), using: &random) }
        #expect(lifetimes.allSatisfy { $0 >= .seconds(2880) && $0 <= .seconds(3600) })
        #expect(Set(lifetimes).count > 40)
        let retries = (0..<50).map { _ in StreamTiming.retry(using: &random) }
        #expect(retries.allSatisfy { StreamTiming.retryMilliseconds.contains($0) } && Set(retries).count > 40)
    }

    @Test func aStreamEndsWhenItsUsersTokenExpires() {
        let now = Date()
        #expect(StreamTiming.duration(lifetime: .seconds(3600), tokenExpires: nil, now: now) == .seconds(3600))
        #expect(StreamTiming.duration(lifetime: .seconds(3600), tokenExpires: now + 90, now: now) == .seconds(90))
        #expect(StreamTiming.duration(lifetime: .seconds(60), tokenExpires: now + 90, now: now) == .seconds(60))
        #expect(StreamTiming.duration(lifetime: .seconds(60), tokenExpires: now - 5, now: now) == .zero)
    }

    @Test func theDescriptorBudgetCountsStreamsUploadsAndPools() {
        let budget = DescriptorBudget(streams: 10_000, uploads: 8, pools: 2)
        #expect(budget.databaseConnections == 41)
        #expect(budget.needed == 10_000 + 8 + 41 + DescriptorBudget.reserve)
        #expect(budget.shortfall(limit: 20_000) == nil)
        let why = budget.shortfall(limit: 1024) ?? ""
        // 1024 less the uploads, the database's and the reserve: what streams may have.
        #expect(
            why.contains("1024") && why.contains("--max-event-streams")
                && why.contains("at most \(1024 - 8 - 41 - DescriptorBudget.reserve)"))
        // Connections leave the database's and the process's own descriptors free, and room for the streams.
        #expect(budget.connections(limit: 20_000) == 20_000 - 41 - DescriptorBudget.processReserve)
        #expect(DescriptorBudget(streams: 100, uploads: 8, pools: 1).connections(limit: 300) >= 100 + 8 + 80)
    }
}
