import Foundation
import NIOCore

/// What an operator should read when the server cannot start, in words: NIO's `IOError` for a port in use reads
/// "bind(descriptor:ptr:bytes:): Address already in use) (errno: 98)", naming no address.
package enum StartupFailure {
    /// A sentence for `error` when it is one the operator can act on; nil otherwise.
    package static func explain(_ error: any Error, host: String, port: Int) -> String? {
        guard let error = error as? IOError else { return nil }
        switch error.errnoCode {
        case EADDRINUSE:
            return "Port \(port) on \(host) is in use (another stickerd, or `make run`, may be running): stop it, "
                + "or choose another port with --port."
        case EACCES:
            return "Not allowed to listen on port \(port) on \(host): ports below 1024 need privileges; use --port."
        case EADDRNOTAVAIL:
            return "\(host) is not an address of this machine: use --host 127.0.0.1, or 0.0.0.0 for every address."
        default:
            return nil
        }
    }
}
