import Foundation

/// Finds and runs the PostgreSQL server programs (initdb, pg_ctl, createdb).
package struct PostgresTools {
    package let binDirectory: String

    /// PATH, then Debian's /usr/lib/postgresql/VERSION/bin, newest first.
    package static var searchDirectories: [String] {
        let path = ProcessInfo.processInfo.environment["PATH"]?.split(separator: ":").map(String.init) ?? []
        let debian = ((try? FileManager.default.contentsOfDirectory(atPath: "/usr/lib/postgresql")) ?? [])
            .sorted { (Int($0) ?? 0) > (Int($1) ?? 0) }
            .map { "/usr/lib/postgresql/\($0)/bin" }
        return path + debian
    }

    /// The first of `directories` holding initdb and pg_ctl.
    package static func find(
        in directories: [String] = searchDirectories
    ) throws(EmbeddedPostgresError) -> PostgresTools {
        for directory in directories
        where FileManager.default.isExecutableFile(atPath: directory + "/initdb")
            && FileManager.default.isExecutableFile(atPath: directory + "/pg_ctl")
        {
            // Follow links such as /usr/local/bin/initdb to the folder that also holds createdb.
            let real = URL(fileURLWithPath: directory + "/initdb").resolvingSymlinksInPath().deletingLastPathComponent()
            return PostgresTools(binDirectory: real.path)
        }
        throw .binariesMissing
    }

    /// The user the cluster must run as: nil (this user) unless we are root, then `postgres`, who gets the folder.
    package func clusterOwner(for directory: URL) throws -> String? {
        guard geteuid() == 0 else { return nil }
        guard let account = getpwnam("postgres") else { throw EmbeddedPostgresError.noUnprivilegedUser }
        let (uid, gid) = (account.pointee.pw_uid, account.pointee.pw_gid)
        for path in [directory.path]
            + (FileManager.default.subpaths(atPath: directory.path) ?? []).map({ directory.path + "/" + $0 })
        {
            chown(path, uid, gid)
        }
        return "postgres"
    }

    /// Runs `program` from the PostgreSQL bin folder, as `user` when given, throwing with its output on failure.
    @discardableResult
    package func run(
        _ program: String, as user: String?, _ arguments: [String], newSession: Bool = false
    ) throws -> String {
        var command = [binDirectory + "/" + program] + arguments
        if let user { command = ["/usr/sbin/runuser", "-u", user, "--"] + command }
        if newSession { command = ["/usr/bin/setsid", "-w"] + command }
        let (status, output) = try spawn(command)
        guard status == 0 else {
            throw EmbeddedPostgresError.commandFailed(program + " " + arguments.joined(separator: " "), status, output)
        }
        return output
    }

    /// The file descriptors open in this process.
    package static func openDescriptors() -> [Int32] {
        ((try? FileManager.default.contentsOfDirectory(atPath: "/proc/self/fd")) ?? []).compactMap { Int32($0) }
    }

    /// All the environment the PostgreSQL programs get.
    package static let environment = ["PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin", "LC_ALL=C"]

    /// posix_spawn and waitpid: Foundation's Process can miss a child's exit when called from a Swift task.
    private func spawn(_ command: [String]) throws -> (Int32, String) {
        var fds: [Int32] = [0, 0]
        // Close-on-exec, so that only the dup2-ed copies reach the child and the postmaster cannot hold the pipe open.
        guard pipe(&fds) == 0 else { throw EmbeddedPostgresError.commandFailed(command[0], -1, "pipe() failed") }
        _ = fcntl(fds[0], F_SETFD, FD_CLOEXEC)
        _ = fcntl(fds[1], F_SETFD, FD_CLOEXEC)
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_adddup2(&actions, fds[1], 1)
        posix_spawn_file_actions_adddup2(&actions, fds[1], 2)
        posix_spawn_file_actions_addclose(&actions, fds[0])
        // Nothing else of stickerd's reaches the server either (sockets, pipes of whoever started stickerd): a
        // postmaster that outlives stickerd must not hold them open.
        for fd in Self.openDescriptors() where fd > 2 && fd != fds[0] && fd != fds[1] {
            posix_spawn_file_actions_addclose(&actions, fd)
        }
        var argv = command.map { strdup($0) } + [nil]
        defer { argv.forEach { free($0) } }
        // A scrubbed environment: the server programs get nothing of stickerd's (STICKER_ADMIN_TOKEN, DATABASE_URL...),
        // which would otherwise be readable in /proc/PID/environ of every PostgreSQL process for as long as it runs.
        var environment = Self.environment.map { strdup($0) } + [nil]
        defer { environment.forEach { free($0) } }
        var pid = pid_t()
        let spawned = posix_spawn(&pid, command[0], &actions, nil, &argv, &environment)
        close(fds[1])
        defer { close(fds[0]) }
        guard spawned == 0 else { throw EmbeddedPostgresError.commandFailed(command[0], spawned, "could not start it") }
        var output: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 4096)
        while true {
            let count = read(fds[0], &buffer, buffer.count)
            if count < 0, errno == EINTR { continue }
            guard count > 0 else { break }
            output += buffer.prefix(count)
        }
        var status: Int32 = 0
        while waitpid(pid, &status, 0) < 0, errno == EINTR {}
        let exitCode = status & 0x7F == 0 ? (status >> 8) & 0xFF : 128 + (status & 0x7F)
        return (exitCode, String(decoding: output, as: UTF8.self))
    }
}
