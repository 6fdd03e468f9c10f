extension ChangeFeed {
    /// `page` in `coding`, compressed on a build thread the first time that coding is asked for.
    package func compressed(_ page: Page, _ coding: ContentCoding) async throws -> CachedBody.Representation {
        let body = page.body
        let made = try await compressions.run(
            ManifestService.CompressionKey(body: ObjectIdentifier(body), coding: coding)
        ) {
            try await ManifestWorkers.shared.build { body.compress(coding) }
        }
        recount(page)
        return made
    }
}
