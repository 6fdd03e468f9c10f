/// Why the embedded cluster could not start, in words that say what to do.
package enum EmbeddedPostgresError: Error, CustomStringConvertible {
    case binariesMissing
    case noUnprivilegedUser
    case commandFailed(String, Int32, String)
    case pathTooLong(String)

    package var description: String {
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
