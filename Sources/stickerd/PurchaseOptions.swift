import ArgumentParser
import CatalogApp
import CatalogCore
import CatalogHTTP
import CatalogServices
import CatalogStore
import Foundation
import Logging
import Purchases

/// Purchases, user tokens and signed image URLs: flags of `serve`, secrets from the environment.
struct PurchaseOptions: ParsableArguments {
    @Option(help: "Seconds the generic webhook's Sticker-Signature timestamp may be from now, either way.")
    var webhookWindow = 300

    @Option(
        help:
            "Seconds a signed premium image URL lives at least (at most twice that); manifests re-sign once per period."
    )
    var assetUrlLifetime = 3600

    @Option(help: "Memory for the products each signed-in user holds, in MiB.")
    var entitlementCacheMib = 16

    @Option(help: "Refused webhook deliveries kept for replay, per source and refusal; the oldest go first.")
    var quarantineLimit = 10_000

    @Option(
        help:
            "MiB of refused deliveries' bodies and signatures kept for replay, per source and refusal; the oldest go first."
    )
    var quarantineMib = 64

    func validate() throws {
        guard webhookWindow >= 1, assetUrlLifetime >= 60, entitlementCacheMib >= 1, quarantineLimit >= 1,
            quarantineMib >= 1
        else {
            throw ValidationError(
                """
                --webhook-window, --entitlement-cache-mib, --quarantine-limit and --quarantine-mib must be at least 1, \
                --asset-url-lifetime at least 60
                """)
        }
    }

    static let environmentHelp = """
        STICKER_USER_JWT_SECRET (HS256 user tokens, at least 32 characters) and/or STICKER_USER_JWT_PUBLIC_KEYS \
        (ES256 public keys: comma-separated PEM files), STICKER_USER_JWT_ISSUER and STICKER_USER_JWT_AUDIENCE (the iss \
        and aud every user token must carry); STICKER_ASSET_SIGNING_KEY (at least 32 characters; a random one \
        per process when unset); STICKER_APPLE_ROOT_CERTS (comma-separated DER or PEM files: Apple Root CA - G3), \
        STICKER_APPLE_BUNDLE_ID, STICKER_APPLE_APP_ID, STICKER_APPLE_SANDBOX=listed|on|off and STICKER_APPLE_SANDBOX_USERS \
        (whose sandbox purchases unlock: by default only the listed users', such as App Review's demo account); \
        STICKER_REVENUECAT_AUTH (the Authorization value set in RevenueCat, at least 16 characters); STICKER_WEBHOOK_SECRETS \
        (comma-separated, each at least 32 bytes, any may sign: rotate by adding the new one first).
        """

    /// Fills `options` from these flags and `environment`, refusing settings that cannot work.
    func configure(_ options: inout ServiceOptions, environment: [String: String], logger: Logger) async throws {
        func value(_ name: String) -> String? { environment[name].flatMap { $0.isEmpty ? nil : $0 } }
        func list(_ name: String) -> [String] {
            value(name)?.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) } ?? []
        }
        func read(_ path: String, for name: String) throws -> [UInt8] {
            guard let data = FileManager.default.contents(atPath: path) else {
                throw ValidationError("\(name): cannot read \(path)")
            }
            return Array(data)
        }
        (options.access.assetURLLifetime, options.caches.entitlementBytes) = (
            Int64(assetUrlLifetime), entitlementCacheMib << 20
        )
        options.purchases.webhookWindow = TimeInterval(webhookWindow)
        (options.limits.quarantinedDeliveries, options.limits.quarantinedBytes) = (quarantineLimit, quarantineMib << 20)

        let secret = value("STICKER_USER_JWT_SECRET")
        if let secret, secret.count < 32 {
            throw ValidationError("STICKER_USER_JWT_SECRET must be at least 32 characters")
        }
        let publicKeys = try list("STICKER_USER_JWT_PUBLIC_KEYS").map {
            String(decoding: try read($0, for: "STICKER_USER_JWT_PUBLIC_KEYS"), as: UTF8.self)
        }
        if secret != nil || !publicKeys.isEmpty {
            let (issuer, audience) = (value("STICKER_USER_JWT_ISSUER"), value("STICKER_USER_JWT_AUDIENCE"))
            if issuer == nil || audience == nil {
                logger.warning(
                    "STICKER_USER_JWT_ISSUER or STICKER_USER_JWT_AUDIENCE is not set: any token the keys sign is a session here, whatever it was minted for"
                )
            }
            do {
                options.access.userTokens = try await UserTokens(
                    secret: secret, publicKeys: publicKeys, issuer: issuer, audience: audience)
            } catch {
                throw ValidationError("STICKER_USER_JWT_PUBLIC_KEYS: not an ES256 public key in PEM (\(error))")
            }
        } else {
            logger.notice(
                "No STICKER_USER_JWT_SECRET or STICKER_USER_JWT_PUBLIC_KEYS: every client is anonymous (free groups only)"
            )
        }

        if let key = value("STICKER_ASSET_SIGNING_KEY") {
            guard key.count >= 32 else {
                throw ValidationError("STICKER_ASSET_SIGNING_KEY must be at least 32 characters")
            }
            options.access.assetSigningKey = Array(key.utf8)
        } else {
            logger.notice(
                "STICKER_ASSET_SIGNING_KEY is not set: premium image URLs and change-feed cursors are signed with a random key, valid on this process only"
            )
        }

        let roots = list("STICKER_APPLE_ROOT_CERTS")
        if !roots.isEmpty {
            guard let bundle = value("STICKER_APPLE_BUNDLE_ID") else {
                throw ValidationError("STICKER_APPLE_ROOT_CERTS needs STICKER_APPLE_BUNDLE_ID")
            }
            let appId = try value("STICKER_APPLE_APP_ID").map { text in
                guard let id = Int64(text) else { throw ValidationError("STICKER_APPLE_APP_ID must be a number") }
                return id
            }
            if appId == nil {
                logger.warning("STICKER_APPLE_APP_ID is not set: production App Store notifications will be refused")
            }
            let verifier: AppleJWSVerifier
            do {
                verifier = try AppleJWSVerifier(roots: try roots.map { try read($0, for: "STICKER_APPLE_ROOT_CERTS") })
            } catch let error as ValidationError {
                throw error
            } catch {
                throw ValidationError("STICKER_APPLE_ROOT_CERTS: not a DER or PEM certificate (\(error))")
            }
            options.purchases.apple = AppleConfiguration(verifier: verifier, bundleId: bundle, appAppleId: appId)
        }
        let testers = Set(list("STICKER_APPLE_SANDBOX_USERS"))
        switch value("STICKER_APPLE_SANDBOX")?.lowercased() {
        case nil, "listed":
            options.purchases.sandbox = .listed(testers)
            if testers.isEmpty {
                logger.notice(
                    "No STICKER_APPLE_SANDBOX_USERS: sandbox purchases unlock nothing; list App Review's demo account and your testers"
                )
            }
        case "on": options.purchases.sandbox = .everyone
        case "off": options.purchases.sandbox = .nobody
        case let other?: throw ValidationError("STICKER_APPLE_SANDBOX must be listed, on or off, not \(other)")
        }
        guard testers.isEmpty || options.purchases.sandbox == .listed(testers) else {
            throw ValidationError("STICKER_APPLE_SANDBOX_USERS needs STICKER_APPLE_SANDBOX=listed (the default)")
        }
        do {
            options.purchases.revenueCatAuthorization = try value("STICKER_REVENUECAT_AUTH").map(
                Secrets.revenueCatAuthorization)
            options.purchases.webhookSecrets = try value("STICKER_WEBHOOK_SECRETS").map(Secrets.webhookSecrets) ?? []
        } catch {
            throw ValidationError(error.description)
        }
    }
}
