import Foundation
import Logging
import Synchronization

/// A PostgreSQL cluster of stickerd's own under a data folder: initdb on first use, a Unix socket there and no TCP
/// port. Run as root, the cluster runs as the unprivileged `postgres` user, since initdb refuses root.
///
/// Every process using the cluster holds a shared lock on the folder's `stickerd.lock`; the last one out stops it,
/// including a cluster found running (left behind by a stickerd that was killed). So `stickerd token create` while
/// `serve` runs leaves it running, and `serve` stops it after. Creating, starting and stopping happen under
/// `setup.lock`, exclusive: `stickerd serve &` and `stickerd token create` at once on an empty folder take turns, the
/// second finding the cluster the first made (both ran initdb before, and one failed).
package final class EmbeddedPostgres: Sendable {
    package let directory: URL
    /// False for throwaway test clusters: no fsync, so tests run fast.
    package let durable: Bool
    package let logger: Logger
    /// The open `stickerd.lock`, share-locked, while this process uses the cluster.
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
        let setup = try FolderLock(directory.appending(path: "setup.lock"))
        defer { setup.unlock() }
        let owner = try tools.clusterOwner(for: directory)
        let fresh = !FileManager.default.fileExists(atPath: cluster.appending(path: "PG_VERSION").path)
        if fresh {
            logger.info("Creating embedded PostgreSQL cluster", metadata: ["directory": "\(cluster.path)"])
            try tools.run(
                "initdb", as: owner,
                ["-D", cluster.path, "-U", Self.user, "-A", "trust", "-E", "UTF8", "--no-locale"]
                    + (durable ? [] : ["--no-sync"]))
        }
        let alone = join()
        switch ClusterLock(cluster: cluster).state {
        case .running(let pid):
            logger.info(
                alone
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
                stop(holding: setup)
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

    /// Share-locks `stickerd.lock` (released by the kernel however this process ends); whether no other process held
    /// it (this one is alone with the cluster).
    private func join() -> Bool {
        ownership.withLock { held in
            if held != nil { return true }
            let fd = open(directory.appending(path: "stickerd.lock").path, O_RDWR | O_CREAT | O_CLOEXEC, 0o600)
            guard fd >= 0 else { return false }
            let alone = flock(fd, LOCK_EX | LOCK_NB) == 0
            // Not waiting: a stickerd of an older version holds it exclusively for its life.
            _ = flock(fd, LOCK_SH | LOCK_NB)
            held = fd
            return alone
        }
    }

    /// Stops a cluster that a process which is gone left running (test clean-up).
    package func stopAbandoned() {
        _ = join()
        stop()
    }

    /// Lets go of the cluster, and stops it when no other process uses it.
    package func stop() {
        guard let setup = try? FolderLock(directory.appending(path: "setup.lock")) else { return }
        defer { setup.unlock() }
        stop(holding: setup)
    }

    private func stop(holding setup: FolderLock) {
        guard let fd = ownership.withLock({ $0 }) else { return }
        defer {
            ownership.withLock { $0 = nil }
            close(fd)
        }
        guard flock(fd, LOCK_EX | LOCK_NB) == 0 else {
            logger.info("Left the embedded PostgreSQL cluster running for the other stickerd using it")
            return
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

/// An exclusive `flock` on a file, waited for: held while a cluster is made, started or stopped.
struct FolderLock {
    let fd: Int32

    init(_ file: URL) throws {
        fd = open(file.path, O_RDWR | O_CREAT | O_CLOEXEC, 0o600)
        guard fd >= 0 else { throw POSIXError(POSIXErrorCode(rawValue: errno) ?? .EIO) }
        while flock(fd, LOCK_EX) != 0 {
            guard errno == EINTR else {
                close(fd)
                throw POSIXError(POSIXErrorCode(rawValue: errno) ?? .EIO)
            }
        }
    }

    func unlock() { close(fd) }
}
