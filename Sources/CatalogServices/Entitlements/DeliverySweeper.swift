import Foundation
import Logging
import Metrics
import ServiceLifecycle

/// Re-applies deliveries left `received` (stored, then the apply failed: PostgreSQL went away, the process stopped),
/// so that a purchase does not wait for the sender's next retry or an admin's replay. Every replica sweeps; the apply
/// locks the delivery, so one a twin already finished is left alone.
package struct DeliverySweeper: Service {
    package let intake: PurchaseIntake
    package let logger: Logger
    package var interval = Duration.seconds(30)

    package func run() async throws {
        await cancelWhenGracefulShutdown {
            while !Task.isCancelled {
                try? await Task.sleep(for: interval)
                guard !Task.isCancelled else { return }
                do {
                    let swept = try await intake.sweep()
                    if swept > 0 {
                        logger.info("Re-applied stalled webhook deliveries", metadata: ["count": "\(swept)"])
                    }
                } catch {
                    logger.debug("Delivery sweep failed; next one in \(interval)", metadata: ["error": "\(error)"])
                }
            }
        }
    }

    package init(intake: PurchaseIntake, logger: Logger, interval: Duration = .seconds(30)) {
        (self.intake, self.logger, self.interval) = (intake, logger, interval)
    }
}

extension PurchaseIntake {
    /// Re-applies at most `limit` deliveries received more than `age` ago and still not applied; how many it handled.
    /// Each is verified again with today's configuration; one that no longer passes is quarantined, not retried
    /// forever.
    @discardableResult
    package func sweep(olderThan age: TimeInterval = 60, limit: Int = 100, now: Date = Date()) async throws -> Int {
        let stalled = try await repository.stalledDeliveries(receivedBefore: now - age, limit: limit)
        for id in stalled {
            guard let (delivery, status) = try await repository.storedDelivery(id: id), status == .received else {
                continue
            }
            let receipt = try await repository.resume(
                id: id, verdict: await verify(delivery, now: now, replaying: true))
            let outcome = if case .stored = receipt { "applied" } else { "quarantined" }
            Counter(label: "webhook_deliveries_swept_total", dimensions: [("outcome", outcome)]).increment()
        }
        return stalled.count
    }
}
