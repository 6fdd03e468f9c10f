import Foundation
import Logging
import Synchronization

/// A PostgreSQL cluster of stickerd's own under a data folder: initdb on first use, a Unix socket there and no TCP
/// port. Run as root, the cluster runs as the unprivileged `postgres` user, since initdb refuses root.
///
/// The process holding the folder's lock file owns the cluster and stops it on exit, including a cluster it found
/// running (left behind by a stickerd that was killed). Other processes (`stickerd token create` while `serve` runs)
/// use the cluster without stopping it.
package final class EmbeddedPostgres: Sendable {
    package let directory: URL
    /// False for throwaway test clusters: no fsync, so tests run fast.
    package let durable: Bool
    package let logger: Logger
    /// The open lock file while this process owns the cluster.
    private let ownership = Mutex<Int32?>(nil)

    package static let database = "stickerd"
    package static let user = "stickerd"

    package init(directory: String, durable: Bool = true, logger: Logger) {
        self.directory = URL(fileURLWithPath: directory, isDirectory: true).standardizedFileURL
        self.durable = durable
        self.logger = logger
    }

    package var cluster: URL { directory.appending(path: "postgres") }
    package var socketPath: String { directory.appending(path: ".s.PGSQL.5432").path }

    /// Starts the cluster (creating it the first time) unless it already runs, and says how to connect to it.
    package func start() throws -> DatabaseEndpoint {
        let tools = try PostgresTools.find()
        guard socketPath.utf8.count < 104 else { throw EmbeddedPostgresError.pathTooLong(socketPath) }
        try FileManager.default.createDirectory(
            at: directory, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        let owns = takeOwnership()
        let owner = try tools.clusterOwner(for: directory)
        let fresh = !FileManager.default.fileExists(atPath: cluster.appending(path: "PG_VERSION").path)
        if fresh {
            logger.info("Creating embedded PostgreSQL cluster", metadata: ["directory": "\(cluster.path)"])
            try tools.run(
                "initdb", as: owner,
                ["-D", cluster.path, "-U", Self.user, "-A", "trust", "-E", "UTF8", "--no-locale"]
                    + (durable ? [] : ["--no-sync"]))
        }
        switch ClusterLock(cluster: cluster).state {
        case .running(let pid):
            logger.info(
                owns
                    ? "Adopted the embedded PostgreSQL cluster left running; it stops when stickerd does"
                    : "Using the embedded PostgreSQL cluster of another running stickerd",
                metadata: ["socket": "\(socketPath)", "pid": "\(pid)"])
        case .stale(let pid):
            logger.warning("Removing a stale postmaster.pid (process \(pid) is not this cluster's PostgreSQL)")
            ClusterLock(cluster: cluster).removeStale(socketDirectory: directory)
            try launch(tools, as: owner)
        case .stopped:
            try launch(tools, as: owner)
        }
        if fresh {
            do {
                try tools.run("createdb", as: nil, ["-h", directory.path, "-U", Self.user, Self.database])
            } catch {
                stop()
                throw error
            }
        }
        return DatabaseEndpoint(socketPath: socketPath, username: Self.user, database: Self.database)
    }

    private func launch(_ tools: PostgresTools, as owner: String?) throws {
        var settings = "-c listen_addresses='' -c unix_socket_directories='\(directory.path)'"
        // Test clusters serve a whole parallel test suite: many apps at once, each with its pool and two connections of
        // its own (the revision listener's, the scheduler's); 500 ran out at the suite's busiest moment.
        if !durable {
            settings += " -c fsync=off -c synchronous_commit=off -c full_page_writes=off -c max_connections=1000"
        }
        // A session of its own keeps Ctrl-C away from the cluster, so stickerd can drain its connections first.
        try tools.run(
            "pg_ctl", as: owner,
            [
                "start", "-w", "-t", "60", "-D", cluster.path, "-l",
                directory.appending(path: "postgres.log").path, "-o", settings,
            ], newSession: true)
        logger.info("Started embedded PostgreSQL", metadata: ["socket": "\(socketPath)"])
    }

    /// Takes the folder's lock (`flock`, released by the kernel however this process ends); false when another
    /// live process holds it.
    private func takeOwnership() -> Bool {
        ownership.withLock { held in
            if held != nil { return true }
            let fd = open(directory.appending(path: "stickerd.lock").path, O_RDWR | O_CREAT | O_CLOEXEC, 0o600)
            guard fd >= 0 else { return false }
            guard flock(fd, LOCK_EX | LOCK_NB) == 0 else {
                close(fd)
                return false
            }
            held = fd
            return true
        }
    }

    /// Stops a cluster that a process which is gone left running (test clean-up).
    package func stopAbandoned() {
        guard takeOwnership() else { return }
        stop()
    }

    /// Stops the cluster if this process owns it, and lets go of it.
    package func stop() {
        guard let fd = ownership.withLock({ $0 }) else { return }
        defer {
            ownership.withLock { $0 = nil }
            close(fd)
        }
        guard case .running = ClusterLock(cluster: cluster).state, let tools = try? PostgresTools.find() else { return }
        do {
            try tools.run(
                "pg_ctl", as: try tools.clusterOwner(for: directory), ["stop", "-w", "-m", "fast", "-D", cluster.path])
            logger.info("Stopped embedded PostgreSQL")
        } catch {
            logger.error("Could not stop embedded PostgreSQL", metadata: ["error": "\(error)"])
        }
    }
}
