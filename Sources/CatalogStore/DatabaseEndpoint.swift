import Foundation
import Logging
import NIOCore
import NIOPosix
import NIOSSL
import PostgresNIO

/// Where PostgreSQL is and how to reach it: parsed from `DATABASE_URL`, or the embedded cluster's socket.
package struct DatabaseEndpoint: Sendable {
    package enum Address: Sendable, Equatable {
        case tcp(host: String, port: Int)
        /// The socket file itself, such as `/run/postgresql/.s.PGSQL.5432`.
        case socket(path: String)
    }

    /// libpq's `sslmode`, with its meaning: `verify-ca` checks the chain, `verify-full` the host name too.
    package enum SSLMode: String, Sendable, CaseIterable {
        case disable, allow, prefer, require
        case verifyCA = "verify-ca"
        case verifyFull = "verify-full"
    }

    package var address: Address
    package var username: String
    package var password: String?
    package var database: String?
    package var sslMode: SSLMode
    /// `sslrootcert`: a PEM file of trusted roots, instead of the system's.
    package var rootCertificates: String?

    package init(socketPath: String, username: String, database: String?) {
        self.init(
            address: .socket(path: socketPath), username: username, password: nil, database: database, sslMode: .disable
        )
    }

    package init(
        address: Address, username: String, password: String?, database: String?, sslMode: SSLMode,
        rootCertificates: String? = nil
    ) {
        (self.address, self.username, self.password, self.database) = (address, username, password, database)
        (self.sslMode, self.rootCertificates) = (sslMode, rootCertificates)
    }

    /// Where the database is, without credentials, for logs.
    package var description: String {
        switch address {
        case .tcp(let host, let port): "\(host):\(port), database \(database ?? username), sslmode \(sslMode.rawValue)"
        case .socket(let path): "\(path) (socket), database \(database ?? username)"
        }
    }

    /// Parses `postgres://user:password@host:port/database?sslmode=...&sslrootcert=...`; `?host=/dir` selects a Unix
    /// socket folder. An unknown `sslmode` is an error, as in libpq.
    package static func parse(_ url: String) throws(DatabaseURLError) -> DatabaseEndpoint {
        guard let components = URLComponents(string: url), ["postgres", "postgresql"].contains(components.scheme) else {
            throw DatabaseURLError(reason: "it must look like postgres://user:password@host:5432/database")
        }
        let query = Dictionary(
            (components.queryItems ?? []).map { ($0.name, $0.value ?? "") }, uniquingKeysWith: { a, _ in a })
        let user = components.percentEncodedUser?.removingPercentEncoding ?? "postgres"
        let password = components.percentEncodedPassword?.removingPercentEncoding
        let database = String(components.path.dropFirst()).removingPercentEncoding.flatMap { $0.isEmpty ? nil : $0 }
        let port = components.port ?? 5432
        guard (1...65535).contains(port) else { throw DatabaseURLError(reason: "port \(port) is out of range") }
        let modeName = query["sslmode"] ?? "prefer"
        guard let mode = SSLMode(rawValue: modeName) else {
            throw DatabaseURLError(
                reason: "sslmode '\(modeName)' is unknown; use one of "
                    + SSLMode.allCases.map(\.rawValue).joined(separator: ", "))
        }
        if let socketFolder = query["host"], socketFolder.hasPrefix("/") {
            return DatabaseEndpoint(
                address: .socket(path: "\(socketFolder)/.s.PGSQL.\(port)"), username: user, password: password,
                database: database, sslMode: .disable)
        }
        guard let host = components.host, !host.isEmpty else { throw DatabaseURLError(reason: "it names no host") }
        return DatabaseEndpoint(
            address: .tcp(host: host, port: port), username: user, password: password, database: database,
            sslMode: mode, rootCertificates: query["sslrootcert"])
    }

    /// Client TLS for this `sslmode`: `verify-ca` checks the chain without the host name, as libpq does.
    package var tlsConfiguration: TLSConfiguration {
        var tls = TLSConfiguration.makeClientConfiguration()
        tls.certificateVerification =
            switch sslMode {
            case .verifyFull: .fullVerification
            case .verifyCA: .noHostnameVerification
            default: .none
            }
        if let rootCertificates { tls.trustRoots = .file(rootCertificates) }
        return tls
    }

    /// TLS for a single connection.
    package var connectionTLS: PostgresConnection.Configuration.TLS {
        get throws {
            switch sslMode {
            case .disable: .disable
            case .allow, .prefer: .prefer(try NIOSSLContext(configuration: tlsConfiguration))
            case .require, .verifyCA, .verifyFull: .require(try NIOSSLContext(configuration: tlsConfiguration))
            }
        }
    }

    /// TLS for the pool.
    package var clientTLS: PostgresClient.Configuration.TLS {
        switch sslMode {
        case .disable: .disable
        case .allow, .prefer: .prefer(tlsConfiguration)
        case .require, .verifyCA, .verifyFull: .require(tlsConfiguration)
        }
    }

    /// The pool's configuration; connections name themselves `stickerd` in `pg_stat_activity`.
    package func clientConfiguration() -> PostgresClient.Configuration {
        var configuration: PostgresClient.Configuration =
            switch address {
            case .tcp(let host, let port):
                PostgresClient.Configuration(
                    host: host, port: port, username: username, password: password, database: database,
                    tls: clientTLS)
            case .socket(let path):
                PostgresClient.Configuration(
                    unixSocketPath: path, username: username, password: password, database: database)
            }
        configuration.options.additionalStartupParameters = [("application_name", "stickerd")]
        configuration.options.connectTimeout = .seconds(5)
        return configuration
    }

    /// One connection of its own, outside the pool, named `applicationName`. Over TCP the socket has keepalive on
    /// (probes after 10 s idle, every 5 s, 3 lost probes close it), so a peer that vanished is noticed in about 25 s
    /// even on a connection that only listens.
    package func connect(applicationName: String, logger: Logger) async throws -> PostgresConnection {
        let eventLoop = MultiThreadedEventLoopGroup.singleton.any()
        var configuration: PostgresConnection.Configuration
        switch address {
        case .socket(let path):
            configuration = .init(unixSocketPath: path, username: username, password: password, database: database)
        case .tcp(let host, let port):
            let channel = try await ClientBootstrap(group: eventLoop)
                .connectTimeout(.seconds(5))
                .channelOption(.socketOption(.so_keepalive), value: 1)
                .channelOption(
                    ChannelOptions.Types.SocketOption(level: .tcp, name: .init(rawValue: 4 /* TCP_KEEPIDLE */)),
                    value: 10
                )
                .channelOption(
                    ChannelOptions.Types.SocketOption(level: .tcp, name: .init(rawValue: 5 /* TCP_KEEPINTVL */)),
                    value: 5
                )
                .channelOption(
                    ChannelOptions.Types.SocketOption(level: .tcp, name: .init(rawValue: 6 /* TCP_KEEPCNT */)), value: 3
                )
                .connect(host: host, port: port).get()
            configuration = .init(
                establishedChannel: channel, tls: try connectionTLS, username: username, password: password,
                database: database)
            if sslMode == .verifyFull { configuration.options.tlsServerName = host }
        }
        configuration.options.additionalStartupParameters = [("application_name", applicationName)]
        return try await PostgresConnection.connect(on: eventLoop, configuration: configuration, id: 0, logger: logger)
    }
}

package struct DatabaseURLError: Error, CustomStringConvertible {
    package let reason: String
    package var description: String { "DATABASE_URL is not usable: \(reason)." }
}
