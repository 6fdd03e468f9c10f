import Foundation

/// What a cluster's `postmaster.pid` says, checked against the process it names: after a crash the pid may belong
/// to an unrelated process, which would make `pg_ctl` and PostgreSQL itself believe the cluster still runs.
package struct ClusterLock {
    package enum State: Equatable {
        case running(pid: Int32)
        /// postmaster.pid names a process that is gone or is not this cluster's postmaster.
        case stale(pid: Int32)
        case stopped
    }

    package let cluster: URL
    package var pidFile: URL { cluster.appending(path: "postmaster.pid") }

    package var state: State {
        guard let text = try? String(contentsOf: pidFile, encoding: .utf8) else { return .stopped }
        guard let pid = text.split(separator: "\n").first.flatMap({ Int32($0.trimmingCharacters(in: .whitespaces)) }),
            pid > 0
        else {
            return .stale(pid: 0)
        }
        // The postmaster works in its data folder: a live process there is it; any other is a reused pid.
        let cwd = try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/\(pid)/cwd")
        let here = cluster.resolvingSymlinksInPath().path
        return kill(pid, 0) == 0 && cwd.map({ URL(fileURLWithPath: $0).resolvingSymlinksInPath().path == here }) == true
            ? .running(pid: pid) : .stale(pid: pid)
    }

    /// Removes a stale postmaster.pid and the socket lock file next to the socket.
    package func removeStale(socketDirectory: URL) {
        try? FileManager.default.removeItem(at: pidFile)
        try? FileManager.default.removeItem(at: socketDirectory.appending(path: ".s.PGSQL.5432.lock"))
        try? FileManager.default.removeItem(at: socketDirectory.appending(path: ".s.PGSQL.5432"))
    }

    package init(cluster: URL) {
        self.cluster = cluster
    }
}
