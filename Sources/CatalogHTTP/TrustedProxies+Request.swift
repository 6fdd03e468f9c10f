import CatalogServices
import Hummingbird
import NIOCore

extension TrustedProxies {
    /// Who `request` counts against: its peer, or behind a trusted proxy the client it names.
    package func source(of request: Request, peer: SocketAddress?) -> ClientAddress {
        let peer = peer?.ipAddress.flatMap { IPAddress($0) }
        return client(peer: peer, forwardedFor: request.headers[values: .xForwardedFor]).map(ClientAddress.init)
            ?? .unknown
    }
}
