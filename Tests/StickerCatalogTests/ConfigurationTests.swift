import Foundation
import Testing
@testable import StickerCatalog

@Suite("Configuration")
struct ConfigurationTests {
    @Test("DATABASE_URL is parsed, and what stickerd logs of it names no password")
    func databaseURL() throws {
        let (tcp, tcpDescription) = try Database.parse("postgres://app:s3cret%21@db.internal:6543/catalog?sslmode=disable")
        #expect(tcp.username == "app" && tcp.password == "s3cret!" && tcp.database == "catalog")
        #expect(tcpDescription == "db.internal:6543, database catalog")
        let (socket, socketDescription) = try Database.parse("postgresql://app:hunter2@/catalog?host=/run/postgresql")
        #expect(socket.unixSocketPath == "/run/postgresql/.s.PGSQL.5432" && socket.password == "hunter2")
        #expect(!socketDescription.contains("hunter2") && !tcpDescription.contains("s3cret"))
        #expect(throws: DatabaseURLError.self) { try Database.parse("mysql://x@y/z") }
        #expect(throws: DatabaseURLError.self) { try Database.parse("postgres:///nohost") }
    }

    @Test("Without PostgreSQL's programs the error says what to install")
    func binariesMissing() throws {
        let error = #expect(throws: EmbeddedPostgresError.self) { try PostgresTools.find(in: ["/nonexistent"]) }
        #expect(error.map { "\($0)" }?.contains("apt-get install postgresql") == true)
        #expect(error.map { "\($0)" }?.contains("DATABASE_URL") == true)
        #expect(try PostgresTools.find().binDirectory.hasSuffix("/bin"))
    }
}
