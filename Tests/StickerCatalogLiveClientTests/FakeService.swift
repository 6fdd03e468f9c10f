import Foundation

/// A tiny HTTP/1.1 server on a thread of its own answering from a table of canned answers, each path's list used in
/// turn (the last repeats): for answers no live stickerd gives on demand, such as a 503 with `Retry-After`.
final class FakeService: @unchecked Sendable {
    struct Answer {
        /// 0: no answer at all, the connection held open and silent.
        var status: Int
        var headers: [String: String] = [:]
        var body = Data()
    }

    let port: Int
    private let fd: Int32
    private let lock = NSLock()
    private var answers: [String: [Answer]]
    private(set) var requests: [(path: String, at: Date)] = []
    private var silent: [Int32] = []

    init(_ answers: [String: [Answer]]) throws {
        self.answers = answers
        fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        var yes: Int32 = 1
        setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &yes, socklen_t(MemoryLayout<Int32>.size))
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let socketFD = fd
        let bound = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                bind(socketFD, $0, length) == 0 && getsockname(socketFD, $0, &length) == 0
            }
        }
        guard bound, listen(socketFD, 64) == 0 else { throw POSIXError(.EADDRINUSE) }
        port = Int(UInt16(bigEndian: address.sin_port))
        Thread.detachNewThread { [self] in serve() }
    }

    deinit {
        shutdown(fd, Int32(SHUT_RDWR))
        close(fd)
        lock.withLock { silent }.forEach { close($0) }
    }

    var base: URL { URL(string: "http://127.0.0.1:\(port)")! }

    private func serve() {
        while true {
            let client = accept(fd, nil, nil)
            guard client >= 0 else { return }
            var buffer = [UInt8](repeating: 0, count: 8192)
            let count = recv(client, &buffer, buffer.count, 0)
            let head = String(decoding: buffer.prefix(max(count, 0)), as: UTF8.self)
            let path = head.split(separator: " ").dropFirst().first.map { String($0.split(separator: "?")[0]) } ?? "/"
            let answer = lock.withLock { () -> Answer in
                requests.append((path, Date()))
                guard var list = answers[path], !list.isEmpty else { return Answer(status: 404) }
                let first = list.count > 1 ? list.removeFirst() : list[0]
                answers[path] = list
                return first
            }
            guard answer.status != 0 else {
                lock.withLock { silent.append(client) }
                continue
            }
            var text = "HTTP/1.1 \(answer.status) X\r\nContent-Length: \(answer.body.count)\r\nConnection: close\r\n"
            for (name, value) in answer.headers { text += "\(name): \(value)\r\n" }
            let bytes = Array((text + "\r\n").utf8) + Array(answer.body)
            _ = bytes.withUnsafeBytes { send(client, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
            close(client)
        }
    }
}
