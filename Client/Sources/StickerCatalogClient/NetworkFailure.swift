import Foundation
import OpenAPIRuntime

#if os(Linux)
    import AsyncHTTPClient
    import NIOCore
    import NIOPosix
#endif

/// Why the service could not be reached, for an app to say the right thing ("you are offline" is not "the server is
/// slow", and neither is a certificate problem).
public enum NetworkFailure: String, Sendable, Equatable {
    /// No connection could be made: no network, no route, the name did not resolve, or nothing listens.
    case offline
    /// The service did not answer in time.
    case timedOut
    /// TLS failed: a certificate not trusted, expired, or for another name.
    case tls
    /// A connection was made and dropped in the middle of an answer.
    case connectionLost
    /// Something else went wrong below HTTP.
    case other

    /// The kind of `error`, as the transport threw it.
    static func of(_ error: any Error) -> NetworkFailure {
        // The generated client wraps what the transport threw.
        if let error = error as? ClientError { return of(error.underlyingError) }
        #if canImport(Darwin)
            if let error = error as? URLError {
                switch error.code {
                case .notConnectedToInternet, .cannotFindHost, .cannotConnectToHost, .dnsLookupFailed, .dataNotAllowed,
                    .internationalRoamingOff:
                    return .offline
                case .timedOut: return .timedOut
                case .secureConnectionFailed, .serverCertificateUntrusted, .serverCertificateHasBadDate,
                    .serverCertificateNotYetValid, .serverCertificateHasUnknownRoot, .clientCertificateRejected:
                    return .tls
                case .networkConnectionLost: return .connectionLost
                default: return .other
                }
            }
        #endif
        #if os(Linux)
            if let error = error as? HTTPClientError {
                switch error {
                case .connectTimeout, .readTimeout, .writeTimeout, .deadlineExceeded: return .timedOut
                case .remoteConnectionClosed: return .connectionLost
                default: break
                }
            }
            if error is NIOConnectionError { return .offline }
            if let error = error as? IOError {
                switch error.errnoCode {
                case ECONNREFUSED, ENETUNREACH, EHOSTUNREACH, ENETDOWN, EHOSTDOWN: return .offline
                case ETIMEDOUT: return .timedOut
                case ECONNRESET, EPIPE, ECONNABORTED: return .connectionLost
                default: return .other
                }
            }
            if let error = error as? ChannelError {
                switch error {
                case .connectTimeout: return .timedOut
                case .eof, .ioOnClosedChannel, .alreadyClosed, .outputClosed, .inputClosed: return .connectionLost
                default: return .other
                }
            }
        #endif
        // NIOSSL's and the system's TLS errors, whichever library threw them.
        let type = String(reflecting: Swift.type(of: error))
        return type.contains("SSL") || type.contains("TLS") ? .tls : .other
    }
}
