import Foundation
import TestSupport

/// A client socket kept open, for clients no HTTP library would be.
final class RawSocket {
    let fd: Int32

    init(port: Int) throws {
        fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = in_port_t(UInt16(port).bigEndian)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
            }
        }
        guard connected == 0 else {
            close(fd)
            throw POSIXError(.ECONNREFUSED)
        }
    }

    deinit { close(fd) }

    func send(_ bytes: [UInt8]) {
        _ = bytes.withUnsafeBytes { Glibc.send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
    }

    /// What has arrived so far without waiting; "<closed>" when the server closed the connection.
    func receiveAvailable() -> String {
        var buffer = [UInt8](repeating: 0, count: 4096)
        let count = recv(fd, &buffer, buffer.count, Int32(MSG_DONTWAIT))
        if count == 0 || (count < 0 && errno == ECONNRESET) { return "<closed>" }
        return count > 0 ? String(decoding: buffer.prefix(count), as: UTF8.self) : ""
    }

    /// Reads until `done` holds for what was read, or the peer closes (`closed`); a reset, or 30 s without a byte,
    /// throws.
    func read(until done: @escaping @Sendable (String) -> Bool) async throws -> (text: String, closed: Bool) {
        let fd = self.fd
        return try await blocking {
            var timeout = timeval(tv_sec: 30, tv_usec: 0)
            setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
            var answer: [UInt8] = []
            var buffer = [UInt8](repeating: 0, count: 4096)
            while !done(String(decoding: answer, as: UTF8.self)) {
                let count = recv(fd, &buffer, buffer.count, 0)
                if count < 0, errno == EINTR { continue }
                if count < 0 { throw POSIXError(POSIXErrorCode(rawValue: errno) ?? .EIO) }
                if count == 0 { return (String(decoding: answer, as: UTF8.self), true) }
                answer += buffer.prefix(count)
            }
            return (String(decoding: answer, as: UTF8.self), false)
        }
    }
}
