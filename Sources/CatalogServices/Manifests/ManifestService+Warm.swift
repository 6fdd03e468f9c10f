import CatalogCore
import Logging

extension ManifestService {
    /// Reads the catalog and builds the default manifest, compressed for brotli and gzip clients, before a replica
    /// takes traffic: after a restart, the first clients find it made instead of waiting for 100,000 rows to be read.
    /// A catalog too large for a whole manifest (`manifestStickerLimit`) gets the first page of its group index.
    /// A failure is logged, not thrown: a replica that cannot read the catalog yet still starts, and answers 503.
    package func warm() async {
        let started = ContinuousClock.now
        do {
            let whole = try await currentSnapshot().stickerCount <= manifestStickerLimit
            let served = try await body(
                for: whole ? .manifest(ManifestQuery()) : .index(ManifestQuery(), GroupIndexRequest()))
            for coding in [ContentCoding.brotli, .gzip] where served.body.compressible {
                _ = try await compressed(served, coding)
            }
            logger.info(
                "Warmed the manifest cache",
                metadata: [
                    "answer": whole ? "manifest" : "group index",
                    "revision": "\(served.revision)", "bytes": "\(served.body.identity.length)",
                    "ms": "\((ContinuousClock.now - started).milliseconds)",
                ])
        } catch {
            logger.warning(
                "Could not warm the manifest cache; the first request will read the catalog",
                metadata: ["error": "\(String(reflecting: error).prefix(300))"])
        }
    }
}
