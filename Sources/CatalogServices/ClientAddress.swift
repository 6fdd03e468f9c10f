import Foundation
import NIOCore

/// An IPv4 or IPv6 address as its 4 or 16 bytes; an IPv4-mapped IPv6 address (`::ffff:a.b.c.d`, what a dual-stack
/// socket reports for an IPv4 peer) is its IPv4 address, so that one client has one spelling.
package struct IPAddress: Hashable, Sendable, CustomStringConvertible {
    package let bytes: [UInt8]

    package init(bytes: [UInt8]) { self.bytes = bytes }

    /// `text` as proxies and sockets write it: dotted IPv4 or IPv6, with brackets, a zone or a port allowed.
    package init?(_ text: some StringProtocol) {
        var text = String(text).trimmingCharacters(in: .whitespaces)
        if text.hasPrefix("["), let close = text.firstIndex(of: "]") {
            text = String(text[text.index(after: text.startIndex)..<close])
        } else if text.contains("."), let colon = text.firstIndex(of: ":"), text.filter({ $0 == ":" }).count == 1 {
            text = String(text[..<colon])  // 192.0.2.1:443
        }
        if let zone = text.firstIndex(of: "%") { text = String(text[..<zone]) }
        var v4 = in_addr()
        var v6 = in6_addr()
        if inet_pton(AF_INET, text, &v4) == 1 {
            bytes = withUnsafeBytes(of: &v4) { Array($0) }
        } else if inet_pton(AF_INET6, text, &v6) == 1 {
            let all = withUnsafeBytes(of: &v6) { Array($0) }
            bytes =
                all.prefix(12).elementsEqual([0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0xFF, 0xFF]) ? Array(all.suffix(4)) : all
        } else {
            return nil
        }
    }

    package var description: String {
        var text = [CChar](repeating: 0, count: Int(INET6_ADDRSTRLEN))
        let family = bytes.count == 4 ? AF_INET : AF_INET6
        _ = bytes.withUnsafeBytes { inet_ntop(family, $0.baseAddress, &text, socklen_t(text.count)) }
        return String(decoding: text.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }
}

/// A block of addresses in CIDR form (`10.0.0.0/8`, `2001:db8::/32`); a bare address is a block of one.
package struct AddressRange: Sendable, Equatable, CustomStringConvertible {
    package let base: IPAddress
    package let prefix: Int

    package init?(_ text: String) {
        let parts = text.split(separator: "/", omittingEmptySubsequences: false)
        guard (1...2).contains(parts.count), let base = IPAddress(parts[0]) else { return nil }
        let bits = base.bytes.count * 8
        guard let prefix = parts.count == 2 ? Int(parts[1]) : bits, (0...bits).contains(prefix) else { return nil }
        (self.base, self.prefix) = (base, prefix)
    }

    package func contains(_ address: IPAddress) -> Bool {
        guard address.bytes.count == base.bytes.count else { return false }
        for index in 0..<base.bytes.count {
            let bits = min(8, max(0, prefix - index * 8))
            let mask = bits == 0 ? UInt8(0) : UInt8(0xFF) << (8 - bits)
            if address.bytes[index] & mask != base.bytes[index] & mask { return false }
        }
        return true
    }

    package var description: String { "\(base)/\(prefix)" }
}

/// Who a request counts against: an IPv4 address, or an IPv6 address's /64 (one subscriber's usual allocation, so
/// hopping within it gains nothing); `unknown` when the transport names no peer (a test's router).
package struct ClientAddress: Hashable, Sendable, CustomStringConvertible {
    /// The address, an IPv6 one with its last 64 bits zero; nil: unknown.
    package let address: IPAddress?

    package static let unknown = ClientAddress(address: nil)

    private init(address: IPAddress?) { self.address = address }

    package init(_ address: IPAddress) {
        self.address =
            address.bytes.count == 16
            ? IPAddress(bytes: address.bytes.prefix(8) + [UInt8](repeating: 0, count: 8)) : address
    }

    package var description: String {
        guard let address else { return "unknown" }
        return address.bytes.count == 16 ? "\(address)/64" : "\(address)"
    }
}

/// The proxies whose `X-Forwarded-For` is believed (`--trusted-proxy`); from anyone else the header is the client's
/// own word and ignored.
package struct TrustedProxies: Sendable {
    package var ranges: [AddressRange]

    package init(_ ranges: [AddressRange] = []) { self.ranges = ranges }

    package func contains(_ address: IPAddress) -> Bool { ranges.contains { $0.contains(address) } }

    /// The address a request comes from: the peer's, unless the peer is a trusted proxy; then the rightmost
    /// `X-Forwarded-For` entry that is not one (each proxy appends the address it heard from, so entries further left
    /// are the client's word), or the leftmost when all are. An unreadable entry stops the walk at the proxy that
    /// wrote it, so garbage cannot buy a client a fresh address.
    package func client(peer: IPAddress?, forwardedFor: [String]) -> IPAddress? {
        guard let peer, contains(peer) else { return peer }
        var client = peer
        for hop in forwardedFor.flatMap({ $0.split(separator: ",") }).reversed() {
            guard let address = IPAddress(hop) else { return client }
            client = address
            if !contains(address) { return address }
        }
        return client
    }
}
