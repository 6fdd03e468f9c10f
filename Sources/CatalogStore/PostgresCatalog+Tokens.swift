import CatalogCore
import PostgresNIO

extension PostgresCatalog: AdminTokenRepository {
    package func adminTokenName(digest: [UInt8]) async throws -> String? {
        try await read { connection in
            try await connection.first(
                "SELECT name FROM admin_tokens WHERE token_sha256 = \(ByteBuffer(bytes: digest))",
                as: String.self, logger: logger)
        }
    }

    package func createAdminToken(name: String, digest: [UInt8]) async throws {
        try await read { connection in
            _ = try await connection.query(
                "INSERT INTO admin_tokens (name, token_sha256) VALUES (\(name), \(ByteBuffer(bytes: digest)))",
                logger: logger)
        }
    }
}
