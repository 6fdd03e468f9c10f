import Logging
import NIOPosix
import ServiceLifecycle
import StickerImage
import Synchronization

/// Fills in, in the background after start, the placeholder colours of images stored before uploads made them
/// (sql/0020): a batch of images at a time, decoded off the event loops, each batch one transaction, so clients refetch
/// a group once per batch rather than once per image. Replicas running it at once fill the same images harmlessly
/// (`fill_placeholders` keeps a colour already set). Once nothing is left it waits for shutdown; an image that does
/// not decode is skipped and logged (its stickers carry no placeholder, which clients do without).
package final class PlaceholderFill: Service, Sendable {
    let maintenance: PostgresMaintenance
    let logger: Logger
    let batch: Int
    /// Set once migrations are applied (`begin()`): before, there is no column to fill.
    private let started = Atomic<Bool>(false)

    package init(maintenance: PostgresMaintenance, logger: Logger, batch: Int = 100) {
        (self.maintenance, self.logger, self.batch) = (maintenance, logger, max(batch, 1))
    }

    package func begin() {
        started.store(true, ordering: .releasing)
    }

    package func run() async throws {
        await cancelWhenGracefulShutdown { [self] in
            while !started.load(ordering: .acquiring) {
                do { try await Task.sleep(for: .milliseconds(100)) } catch { return }
            }
            await fill()
        }
        // Done before shutdown: a service that returns would end the whole group.
        try? await gracefulShutdown()
    }

    /// Fills every image that needs it; a failing database is retried after a backoff with jitter.
    package func fill() async {
        var (after, filled, skipped, failures) = ("", 0, 0, 0)
        while !Task.isCancelled {
            do {
                let images = try await maintenance.imagesNeedingPlaceholders(after: after, limit: batch)
                guard let last = images.last else { break }
                let colours = try await NIOThreadPool.singleton.runIfActive {
                    images.compactMap { image in
                        (try? Placeholder.colour(ofFile: image.bytes)).map { (sha256: image.sha256, colour: $0) }
                    }
                }
                for image in images where !colours.contains(where: { $0.sha256 == image.sha256 }) {
                    logger.warning(
                        "A stored image did not decode: no placeholder", metadata: ["sha256": "\(image.sha256)"])
                }
                skipped += images.count - colours.count
                filled += try await maintenance.fillPlaceholders(colours)
                (after, failures) = (last.sha256, 0)
            } catch {
                guard !Task.isCancelled else { return }
                failures += 1
                if failures == 1 {
                    logger.warning(
                        "Could not fill placeholders yet", metadata: ["error": "\(String(reflecting: error))"])
                }
                let ceiling = min(30.0, 0.5 * Double(1 << min(failures, 6)))
                do { try await Task.sleep(for: .seconds(Double.random(in: ceiling / 2...ceiling))) } catch { return }
            }
        }
        if filled + skipped > 0 {
            logger.info(
                "Placeholder colours filled in for stored images",
                metadata: ["filled": "\(filled)", "skipped": "\(skipped)"])
        }
    }
}
