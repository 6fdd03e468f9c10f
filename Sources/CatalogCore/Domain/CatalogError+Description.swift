/// What went wrong in words, for the command line (`stickerd export` printed `Error: tooLarge(stickers: 2002)`); the
/// API says the same in its problems' `detail`.
extension CatalogError: CustomStringConvertible {
    package var description: String {
        switch self {
        case .notFound(let what): "\(what) was not found."
        case .conflict(let detail), .cursorExpired(let detail), .tooLarge(let detail): detail
        case .invalid(let issues), .invalidSchedule(let issues):
            issues.map { "\($0.field) \($0.message)" }.joined(separator: "; ") + "."
        case .unknownFilter(let name): "There is no filter named '\(name)'; GET /v1/filters lists them."
        case .invalidParameter(let name, let rule), .invalidHeader(let name, let rule): "\(name) \(rule)."
        }
    }
}
