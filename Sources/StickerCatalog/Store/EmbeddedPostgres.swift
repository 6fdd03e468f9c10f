import Foundation
import Logging
import PostgresNIO
import Synchronization

/// A PostgreSQL cluster of stickerd's own under a data folder: initdb on first use, a Unix socket there and no TCP port.
/// Run as root, the cluster runs as the unprivileged `postgres` user, since initdb refuses root.
public final class EmbeddedPostgres: Sendable {
    public let directory: URL
    /// False for throwaway test clusters: no fsync, so tests run fast.
    let durable: Bool
    let logger: Logger
    private let startedHere = Mutex(false)

    static let database = "stickerd"
    static let user = "stickerd"

    public init(directory: String, durable: Bool = true, logger: Logger) {
        self.directory = URL(fileURLWithPath: directory, isDirectory: true).standardizedFileURL
        self.durable = durable
        self.logger = logger
    }

    var cluster: URL { directory.appending(path: "postgres") }
    var socketPath: String { directory.appending(path: ".s.PGSQL.5432").path }

    /// Starts the cluster (creating it the first time) unless it already runs, and says how to connect to it.
    public func start() throws -> PostgresClient.Configuration {
        let tools = try PostgresTools.find()
        guard socketPath.utf8.count < 104 else { throw EmbeddedPostgresError.pathTooLong(socketPath) }
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        let owner = try tools.clusterOwner(for: directory)
        let fresh = !FileManager.default.fileExists(atPath: cluster.appending(path: "PG_VERSION").path)
        if fresh {
            logger.info("Creating embedded PostgreSQL cluster", metadata: ["directory": "\(cluster.path)"])
            try tools.run("initdb", as: owner, ["-D", cluster.path, "-U", Self.user, "-A", "trust", "-E", "UTF8", "--no-locale"]
                + (durable ? [] : ["--no-sync"]))
        }
        if (try? tools.run("pg_ctl", as: owner, ["status", "-D", cluster.path])) != nil {
            logger.info("Using the embedded PostgreSQL cluster that is already running", metadata: ["socket": "\(socketPath)"])
        } else {
            var settings = "-c listen_addresses='' -c unix_socket_directories='\(directory.path)'"
            if !durable { settings += " -c fsync=off -c synchronous_commit=off -c full_page_writes=off" }
            // A session of its own keeps Ctrl-C away from the cluster, so stickerd can drain its connections first.
            try tools.run("pg_ctl", as: owner, ["start", "-w", "-t", "60", "-D", cluster.path, "-l",
                                                directory.appending(path: "postgres.log").path, "-o", settings], newSession: true)
            startedHere.withLock { $0 = true }
            logger.info("Started embedded PostgreSQL", metadata: ["socket": "\(socketPath)"])
        }
        if fresh {
            do {
                try tools.run("createdb", as: nil, ["-h", directory.path, "-U", Self.user, Self.database])
            } catch {
                stop()
                throw error
            }
        }
        return PostgresClient.Configuration(unixSocketPath: socketPath, username: Self.user, password: nil, database: Self.database)
    }

    /// Stops a cluster that a process which is gone left running.
    public func stopAbandoned() {
        startedHere.withLock { $0 = true }
        stop()
    }

    /// Stops the cluster if this process started it.
    public func stop() {
        guard startedHere.withLock({ $0 }), let tools = try? PostgresTools.find() else { return }
        do {
            try tools.run("pg_ctl", as: try tools.clusterOwner(for: directory), ["stop", "-w", "-m", "fast", "-D", cluster.path])
            startedHere.withLock { $0 = false }
            logger.info("Stopped embedded PostgreSQL")
        } catch {
            logger.error("Could not stop embedded PostgreSQL", metadata: ["error": "\(error)"])
        }
    }
}

public enum EmbeddedPostgresError: Error, CustomStringConvertible {
    case binariesMissing
    case noUnprivilegedUser
    case commandFailed(String, Int32, String)
    case pathTooLong(String)

    public var description: String {
        switch self {
        case .binariesMissing:
            "PostgreSQL server programs (initdb, pg_ctl) are not installed. Install them with `apt-get install postgresql` "
                + "(or `make run`, which does it), or set DATABASE_URL to use an existing server."
        case .noUnprivilegedUser:
            "Running as root, stickerd runs PostgreSQL as the user 'postgres', which does not exist. Create it "
                + "(`useradd --system postgres`) or run stickerd as an ordinary user."
        case .commandFailed(let command, let status, let output):
            "`\(command)` failed with status \(status):\n\(output)"
        case .pathTooLong(let path):
            "The socket path \(path) is too long for a Unix socket; choose a shorter --data-dir."
        }
    }
}
