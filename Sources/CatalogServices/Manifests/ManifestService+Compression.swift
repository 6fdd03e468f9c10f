extension ManifestService {
    /// `served` in `coding`, compressed on a build thread the first time that coding is asked for (one compression
    /// however many ask at once).
    package func compressed(_ served: Served, _ coding: ContentCoding) async throws -> CachedBody.Representation {
        let body = served.body
        let made = try await compressions.run(CompressionKey(body: ObjectIdentifier(body), coding: coding)) {
            try await ManifestWorkers.shared.build { body.compress(coding) }
        }
        recount(served)
        return made
    }
}
