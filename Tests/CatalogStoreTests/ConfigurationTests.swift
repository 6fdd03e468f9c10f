import CatalogStore
import Testing

@Suite("Configuration")
struct ConfigurationTests {
    @Test("DATABASE_URL is parsed, and what stickerd logs of it names no password")
    func databaseURL() throws {
        let tcp = try DatabaseEndpoint.parse("postgres://app:s3cret%21@db.internal:6543/catalog?sslmode=disable")
        #expect(tcp.username == "app" && tcp.password == "s3cret!" && tcp.database == "catalog")
        #expect(tcp.address == .tcp(host: "db.internal", port: 6543))
        #expect(tcp.description == "db.internal:6543, database catalog, sslmode disable")
        let socket = try DatabaseEndpoint.parse("postgresql://app:hunter2@/catalog?host=/run/postgresql")
        #expect(socket.address == .socket(path: "/run/postgresql/.s.PGSQL.5432") && socket.password == "hunter2")
        #expect(!socket.description.contains("hunter2") && !tcp.description.contains("s3cret"))
        #expect(throws: DatabaseURLError.self) { try DatabaseEndpoint.parse("mysql://x@y/z") }
        #expect(throws: DatabaseURLError.self) { try DatabaseEndpoint.parse("postgres:///nohost") }
    }

    @Test("An unknown sslmode is refused; verify-ca checks the chain but not the host name, verify-full both")
    func sslModes() throws {
        let error = #expect(throws: DatabaseURLError.self) {
            try DatabaseEndpoint.parse("postgres://a@h/d?sslmode=verify_full")
        }
        #expect(error?.description.contains("verify-full") == true)
        #expect(try DatabaseEndpoint.parse("postgres://a@h/d").sslMode == .prefer)
        let verifyCA = try DatabaseEndpoint.parse("postgres://a@h/d?sslmode=verify-ca")
        #expect(verifyCA.tlsConfiguration.certificateVerification == .noHostnameVerification)
        let verifyFull = try DatabaseEndpoint.parse("postgres://a@h/d?sslmode=verify-full&sslrootcert=/etc/ca.pem")
        #expect(verifyFull.tlsConfiguration.certificateVerification == .fullVerification)
        #expect(verifyFull.tlsConfiguration.trustRoots == .file("/etc/ca.pem"))
        #expect(
            try DatabaseEndpoint.parse("postgres://a@h/d?sslmode=require").tlsConfiguration.certificateVerification
                == .none)
        #expect(try DatabaseEndpoint.parse("postgres://a@h/d?sslmode=verify-ca").connectionTLS.isEnforced)
        #expect(try !DatabaseEndpoint.parse("postgres://a@h/d?sslmode=prefer").connectionTLS.isEnforced)
        #expect(try !DatabaseEndpoint.parse("postgres://a@h/d?sslmode=disable").connectionTLS.isAllowed)
    }

    @Test("Without PostgreSQL's programs the error says what to install")
    func binariesMissing() throws {
        let error = #expect(throws: EmbeddedPostgresError.self) { try PostgresTools.find(in: ["/nonexistent"]) }
        #expect(error.map { "\($0)" }?.contains("apt-get install postgresql") == true)
        #expect(error.map { "\($0)" }?.contains("DATABASE_URL") == true)
    }
}
