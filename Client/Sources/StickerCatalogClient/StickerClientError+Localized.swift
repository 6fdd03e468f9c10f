import Foundation

/// What an app shows: a sentence saying what happened, and one saying what the user can do, both from the package's
/// string catalog (`Localizable.xcstrings`: English now, translatable). The technical detail (status, problem code,
/// the system's reason) is `failureReason`, for logs and bug reports.
extension StickerClientError: LocalizedError {
    public var errorDescription: String? {
        switch self {
        case .refused: Localized.text("The sticker service turned the request down.")
        case .corrupt: Localized.text("A sticker picture arrived damaged.")
        case .unreachable(_, .offline): Localized.text("The sticker service could not be reached.")
        case .unreachable(_, .timedOut): Localized.text("The sticker service did not answer in time.")
        case .unreachable(_, .tls): Localized.text("A secure connection to the sticker service could not be made.")
        case .unreachable: Localized.text("The connection to the sticker service was lost.")
        case .unavailable: Localized.text("The sticker service is busy.")
        case .invalidAnswer: Localized.text("The sticker service sent something this app cannot use.")
        case .notSynced: Localized.text("The stickers have not been downloaded yet.")
        case .storage(_, let code?):
            Localized.text(
                "The stickers could not be saved on this device: %@.", String(cString: strerror(code.rawValue)))
        case .storage: Localized.text("The stickers could not be saved on this device.")
        case .credentialsUnavailable: Localized.text("Your sign-in to the sticker service has ended.")
        case .timedOut: Localized.text("Updating the stickers took too long.")
        case .busy: Localized.text("The stickers are being updated by another part of the app.")
        }
    }

    public var recoverySuggestion: String? {
        switch self {
        case .unreachable(_, .offline): Localized.text("Check the network connection, then try again.")
        case .unreachable(_, .tls): Localized.text("Check the device's date and time, or try another network.")
        case .unreachable, .timedOut: Localized.text("Try again on a faster connection; what was downloaded is kept.")
        case .unavailable(_, _, let after?) where after >= .seconds(60):
            Localized.text("Try again in %lld minutes.", Int64((after.seconds / 60).rounded(.up)))
        case .unavailable, .busy: Localized.text("Try again in a moment.")
        case .corrupt: Localized.text("The next update downloads it again.")
        case .refused, .invalidAnswer:
            Localized.text("Try again later. If it keeps happening, update the app.")
        case .notSynced: Localized.text("Connect to the internet to download them.")
        case .storage(_, .ENOSPC?), .storage(_, .EDQUOT?):
            Localized.text("Free some space on the device, then try again.")
        case .storage: Localized.text("Try again. If it keeps happening, reinstall the app.")
        case .credentialsUnavailable: Localized.text("Sign in again to see your stickers.")
        }
    }

    /// The technical detail, in English: for logs and bug reports, not for the user.
    public var failureReason: String? {
        switch self {
        case .refused(let status, let code, let detail): "HTTP \(status) \(code ?? "-"): \(detail ?? "no detail")"
        case .corrupt(let sha256): "sha256 \(sha256.prefix(12))… did not match"
        case .unreachable(let what, let reason): "\(reason.rawValue): \(what)"
        case .unavailable(let status, let code, let after):
            "HTTP \(status) \(code ?? "-"), Retry-After \(after.map { "\(Int($0.seconds)) s" } ?? "none")"
        case .invalidAnswer(let reason): reason
        case .notSynced: "no catalog.json in the folder"
        case .storage(let what, let code): "\(what): \(code.map { String(cString: strerror($0.rawValue)) } ?? "-")"
        case .credentialsUnavailable(let underlying): "the token provider threw: \(underlying)"
        case .timedOut(let allowance): "past the sync's deadline of \(Int(allowance.seconds)) s"
        case .busy: "the folder's lock was held by another process past SyncOptions.lockWait"
        }
    }
}

/// The package's user-facing strings, from `Localizable.xcstrings`.
enum Localized {
    /// Told of every key looked up: a test's check that each is in the string catalog.
    @TaskLocal static var observer: (@Sendable (String) -> Void)?

    /// `key` (its English text, and its entry in the catalog) in the user's language, with `arguments` put in. Where
    /// the catalog is not compiled (Linux) the key itself, English, is the text.
    static func text(_ key: String, _ arguments: any CVarArg...) -> String {
        observer?(key)
        let format = Bundle.module.localizedString(forKey: key, value: key, table: nil)
        return arguments.isEmpty ? format : String(format: format, arguments: arguments)
    }
}
