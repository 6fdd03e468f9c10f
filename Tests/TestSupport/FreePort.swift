import Foundation
import Synchronization

/// Ports for the processes the tests start (stickerd, its replicas), shared by every test target, which run in one
/// process: no two tests are handed one port.
package enum FreePort {
    /// A TCP port nothing listens on now, below the kernel's ephemeral range, and never handed out twice by this
    /// process. A port from the ephemeral range (what binding port 0 gives) can become the local port of one of the
    /// suite's own outgoing connections before stickerd binds it, which then fails to start ("Address already in use"):
    /// seen as a stickerd that ended at start, only in busy full suites.
    package static func next() throws -> Int {
        let range =
            (try? String(contentsOfFile: "/proc/sys/net/ipv4/ip_local_port_range", encoding: .utf8))?
            .split(whereSeparator: \.isWhitespace).first.flatMap { Int($0) } ?? 32768
        for _ in 0..<500 {
            let port = Int.random(in: 10_000..<max(10_001, range))
            guard handedOut.withLock({ $0.insert(port).inserted }) else { continue }
            let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
            defer { close(fd) }
            var address = sockaddr_in()
            address.sin_family = sa_family_t(AF_INET)
            address.sin_port = UInt16(port).bigEndian
            address.sin_addr.s_addr = inet_addr("127.0.0.1")
            let bound = withUnsafePointer(to: &address) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                    bind(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
                }
            }
            if bound == 0 { return port }
        }
        throw POSIXError(.EADDRINUSE)
    }

    private static let handedOut = Mutex<Set<Int>>([])
}
