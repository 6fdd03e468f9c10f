import Crypto
import Foundation
import Synchronization
import TestSupport

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// A real `stickerd serve --demo` (the binary built beside this test bundle) on an embedded PostgreSQL of its own,
/// with user tokens, the generic purchase webhook and a known asset signing key; and what the tests do to it as an
/// admin, a purchase backend and a user.
final class LiveService: @unchecked Sendable {
    static let binary = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent().appending(
        path: "stickerd"
    ).path
    static let adminToken = "client-tests-admin-token"
    static let userSecret = "client-tests-user-secret-0123456789abcdef"
    static let webhookSecret = "client-tests-webhook-secret-0123456789abcdef"
    static let product = "com.example.choco"

    let folder = URL(fileURLWithPath: NSTemporaryDirectory()).appending(path: "stickerd-client-\(UUID().uuidString)")
    let port: Int
    var base: URL { URL(string: "http://127.0.0.1:\(port)")! }
    private var process: Process?

    init() async throws {
        Self.removeLeftovers()
        port = try Self.freePort()
        try await start()
    }

    deinit {
        process?.terminate()
        process?.waitUntilExit()
        try? FileManager.default.removeItem(at: folder)
    }

    /// Starts (or starts again, on the same data and port) and waits until ready.
    func start() async throws {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: Self.binary)
        // (Patient with the database: in a busy suite a new connection has taken over 10 s.)
        process.arguments = [
            "serve", "--demo", "--port", "\(port)", "--data-dir", folder.appending(path: "db").path,
            "--database-wait", "60", "--statement-timeout", "120",
        ]
        process.environment = [
            "PATH": ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin", "LOG_LEVEL": "warning",
            "STICKER_ADMIN_TOKEN": Self.adminToken, "STICKER_USER_JWT_SECRET": Self.userSecret,
            "STICKER_WEBHOOK_SECRETS": Self.webhookSecret,
            "STICKER_ASSET_SIGNING_KEY": "client-tests-asset-key-0123456789abcdef",
        ]
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let log = folder.appending(path: "stickerd.log")
        try Data().write(to: log)  // created empty, or the failure thrown
        let output = try FileHandle(forWritingTo: log)
        output.seekToEndOfFile()
        (process.standardOutput, process.standardError) = (output, output)
        try process.run()
        self.process = process
        LiveService.stopAtExit(process.processIdentifier)
        try Data("\(process.processIdentifier)".utf8).write(to: folder.appending(path: "pid"))
        let deadline = ContinuousClock.now + .seconds(120)
        while ContinuousClock.now < deadline, process.isRunning {
            if (try? await request("GET", "/readyz").status) == 200 { return }
            try await Task.sleep(for: .milliseconds(200))
        }
        throw CocoaError(
            .fileReadUnknown,
            userInfo: [
                NSLocalizedDescriptionKey: (try? String(contentsOf: log, encoding: .utf8)) ?? "stickerd did not start"
            ])
    }

    /// Stops the process (SIGTERM) and waits for it.
    func stop() async {
        guard let process else { return }
        process.terminate()
        while process.isRunning { try? await Task.sleep(for: .milliseconds(50)) }
        self.process = nil
    }

    /// One request; the status and body.
    @discardableResult
    func request(
        _ method: String, _ path: String, json: Any? = nil, body: Data? = nil, headers: [String: String] = [:]
    ) async throws -> (status: Int, body: Data) {
        var request = URLRequest(url: URL(string: path, relativeTo: base)!.absoluteURL)
        request.httpMethod = method
        if let json {
            request.httpBody = try JSONSerialization.data(withJSONObject: json)
            request.setValue("application/json", forHTTPHeaderField: "Content-Type")
        }
        if let body { request.httpBody = body }
        for (name, value) in headers { request.setValue(value, forHTTPHeaderField: name) }
        let (data, response) = try await URLSession.shared.data(for: request)
        return ((response as? HTTPURLResponse)?.statusCode ?? 0, data)
    }

    /// An admin request, checked to succeed.
    @discardableResult
    func admin(
        _ method: String, _ path: String, json: Any? = nil, body: Data? = nil, contentType: String? = nil
    ) async throws -> Data {
        var headers = ["Authorization": "Bearer \(Self.adminToken)"]
        if let contentType { headers["Content-Type"] = contentType }
        let (status, data) = try await request(method, "/v1/admin/" + path, json: json, body: body, headers: headers)
        guard (200..<300).contains(status) else {
            throw CocoaError(
                .fileReadUnknown,
                userInfo: [
                    NSLocalizedDescriptionKey: "\(method) \(path): \(status) \(String(decoding: data, as: UTF8.self))"
                ])
        }
        return data
    }

    /// The service's manifest for `query` (as `token`'s user when given), decoded as the client package does.
    func manifest(_ query: String = "", token: String? = nil) async throws -> [String: Any] {
        let (_, data) = try await request(
            "GET", "/v1/manifest" + (query.isEmpty ? "" : "?" + query),
            headers: token.map { ["Authorization": "Bearer \($0)"] } ?? [:])
        return (try JSONSerialization.jsonObject(with: data)) as? [String: Any] ?? [:]
    }

    /// An HS256 user token for `user`, valid for an hour.
    static func userToken(_ user: String) -> String {
        func base64URL(_ data: Data) -> String {
            data.base64EncodedString().replacingOccurrences(of: "+", with: "-").replacingOccurrences(of: "/", with: "_")
                .replacingOccurrences(of: "=", with: "")
        }
        let header = base64URL(Data(#"{"alg":"HS256","typ":"JWT"}"#.utf8))
        let payload = base64URL(Data(#"{"sub":"\#(user)","exp":\#(Int(Date().timeIntervalSince1970) + 3600)}"#.utf8))
        let mac = HMAC<SHA256>.authenticationCode(
            for: Data("\(header).\(payload)".utf8), using: SymmetricKey(data: Data(userSecret.utf8)))
        return "\(header).\(payload).\(base64URL(Data(mac)))"
    }

    /// A generic purchase webhook delivery (`purchase`, `refund`...) of `product` for `user`, signed as the backend
    /// does.
    func purchaseEvent(_ type: String, user: String, transaction: String) async throws -> Int {
        let now = ISO8601DateFormatter().string(from: Date())
        let event: [String: Any] = [
            "id": "evt-\(UUID().uuidString)", "type": type, "userId": user, "productId": Self.product,
            "transactionId": transaction, "occurredAt": now, "environment": "production",
        ]
        let body = try JSONSerialization.data(withJSONObject: event)
        let time = Int(Date().timeIntervalSince1970)
        let mac = HMAC<SHA256>.authenticationCode(
            for: Data("\(time).".utf8) + body, using: SymmetricKey(data: Data(Self.webhookSecret.utf8)))
        let signature = "t=\(time),v1=" + mac.map { String(format: "%02x", $0) }.joined()
        return try await request(
            "POST", "/v1/webhooks/purchases", body: body,
            headers: ["Sticker-Signature": signature, "Content-Type": "application/json"]
        ).status
    }

    /// Services shared by a whole suite are never deinitialised: SIGTERM them when the test process exits.
    private static let started = NSLock()
    nonisolated(unsafe) private static var pids: [Int32] = []
    private static let registered: Bool = {
        atexit { LiveService.started.withLock { for pid in LiveService.pids { kill(pid, SIGTERM) } } }
        return true
    }()

    /// The folders of services of earlier runs whose process is gone (a shared one cannot remove its own), and sync
    /// folders older than an hour.
    static func removeLeftovers() {
        let temporary = URL(fileURLWithPath: NSTemporaryDirectory())
        for name in (try? FileManager.default.contentsOfDirectory(atPath: temporary.path)) ?? [] {
            let folder = temporary.appending(path: name)
            if name.hasPrefix("stickerd-client-") {
                let pid = (try? String(contentsOf: folder.appending(path: "pid"), encoding: .utf8)).flatMap {
                    Int32($0)
                }
                if let pid, kill(pid, 0) != 0 { try? FileManager.default.removeItem(at: folder) }
            } else if name.hasPrefix("sticker-sync-"),
                let modified = (try? FileManager.default.attributesOfItem(atPath: folder.path))?[.modificationDate]
                    as? Date,
                modified < Date(timeIntervalSinceNow: -3600)
            {
                try? FileManager.default.removeItem(at: folder)
            }
        }
    }

    static func stopAtExit(_ pid: Int32) {
        _ = registered
        started.withLock { pids.append(pid) }
    }

    /// A TCP port nothing listens on now (`FreePort`).
    static func freePort() throws -> Int { try FreePort.next() }
}
