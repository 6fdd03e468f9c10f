/// Why a multipart/form-data body is refused.
public enum FormDataError: Error, Sendable, Equatable {
    /// The Content-Type's boundary is not 1-70 characters of RFC 2046's alphabet.
    case invalidBoundary
    /// The body, counting every byte (preamble, delimiters, part headers, part bodies, epilogue), passed `limit`.
    case tooLarge(limit: Int)
    /// A part, or the number of parts or headers, passed a limit of `FormLimits`.
    case partTooLarge(name: String, limit: Int)
    case tooManyParts(limit: Int)
    case tooManyHeaders(limit: Int)
    /// The body does not follow RFC 7578 (a missing delimiter, a header without a colon, no closing delimiter...).
    case malformed(String)
}
