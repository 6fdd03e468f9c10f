/// How many refused webhook deliveries are kept (the store keeps the tally; the metrics read it).
package protocol QuarantineCounter: Sendable {
    func quarantineSize() async throws -> Int
}

/// An upload meant to reuse an image's stored renditions found them gone (collected since it looked): make them.
package struct RenditionsMissing: Error, Sendable {
    package init() {}
}
