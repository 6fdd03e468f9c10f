import CatalogCore
import CatalogHTTP
import Foundation
import Testing

/// A browser's event-stream ticket: opens one stream, within a minute, as its user, on any replica with the key.
@Suite struct EventTicketTests {
    static let signer = AssetSigner(key: Array(repeating: 7, count: 32), lifetime: 60)
    static let now = Date(timeIntervalSince1970: 1_800_000_000)

    static func code(_ body: () throws -> Void) -> String? {
        do {
            try body()
            return nil
        } catch {
            return (error as? Problem)?.code
        }
    }

    @Test func aTicketOpensOneStreamAsItsUserOnAnyReplicaWithTheKey() throws {
        let (made, other) = (EventTickets(signer: Self.signer), EventTickets(signer: Self.signer))
        let tokenExpires = Self.now + 3600
        let (ticket, expires) = made.issue(user: "zoe", tokenExpires: tokenExpires, now: Self.now)
        #expect(expires == Self.now + EventTickets.lifetime)
        let verified = try other.redeem(Substring(ticket), now: Self.now + 30)
        #expect(verified.user == "zoe" && verified.expires == tokenExpires)
        // Spent: the replica that took it refuses it again.
        #expect(Self.code { _ = try other.redeem(Substring(ticket), now: Self.now + 31) } == "invalid_ticket")
        #expect(!ticket.contains("zoe"))  // opaque enough not to spell the user out in a URL
    }

    @Test func anExpiredForgedOrForeignTicketIsRefused() throws {
        let tickets = EventTickets(signer: Self.signer)
        let (ticket, _) = tickets.issue(user: "zoe", tokenExpires: Self.now + 3600, now: Self.now)
        #expect(Self.code { _ = try tickets.redeem(Substring(ticket), now: Self.now + 61) } == "invalid_ticket")
        // A ticket outlives no token: one whose token expires in 10 s opens nothing after.
        let (short, _) = tickets.issue(user: "yan", tokenExpires: Self.now + 10, now: Self.now)
        #expect(Self.code { _ = try tickets.redeem(Substring(short), now: Self.now + 11) } == "invalid_ticket")
        // Another key's ticket, a changed byte, garbage, and an oversized one.
        let foreign = EventTickets(signer: AssetSigner(key: Array(repeating: 8, count: 32), lifetime: 60))
        let (theirs, _) = foreign.issue(user: "zoe", tokenExpires: Self.now + 3600, now: Self.now)
        #expect(Self.code { _ = try tickets.redeem(Substring(theirs), now: Self.now) } == "invalid_ticket")
        var bytes = Array(ticket.utf8)
        bytes[10] = bytes[10] == UInt8(ascii: "A") ? UInt8(ascii: "B") : UInt8(ascii: "A")
        let changed = String(decoding: bytes, as: UTF8.self)
        #expect(Self.code { _ = try tickets.redeem(Substring(changed), now: Self.now) } == "invalid_ticket")
        for junk in ["", "%%%", String(repeating: "A", count: 5000)] {
            #expect(Self.code { _ = try tickets.redeem(Substring(junk), now: Self.now) } == "invalid_ticket")
        }
    }
}
