/// An admin write sent with an `Idempotency-Key`: the key, and how to phrase the write's answer. The store claims the
/// key when the write's transaction begins and keeps the answer before it commits, so a write that commits always
/// leaves its answer for a retry, and one that rolls back (or never reaches COMMIT) leaves the key free.
package struct IdempotentWrite<Value: Sendable>: Sendable {
    package let key: IdempotencyKey
    /// The answer to keep for the write's result; nil when that result is a refusal (a 404), which keeps nothing.
    package let answer: @Sendable (Value) async throws -> StoredResponse?

    package init(key: IdempotencyKey, answer: @escaping @Sendable (Value) async throws -> StoredResponse?) {
        (self.key, self.answer) = (key, answer)
    }
}

/// An `Idempotency-Key` as kept: whose it is, the key, and what the request that brought it meant.
package struct IdempotencyKey: Sendable, Hashable {
    /// The identity of the admin token that sent it (its SHA-256, hex), never its name: two tokens may share a name.
    package var token: String
    package var key: String
    /// A hash of what the request means (method, path, query, body), to tell a retry from another request.
    package var fingerprint: String

    package init(token: String, key: String, fingerprint: String) {
        (self.token, self.key, self.fingerprint) = (token, key, fingerprint)
    }
}

/// The answers kept for admin writes sent with an `Idempotency-Key`.
package protocol IdempotencyRepository: Sendable {
    /// What is kept under `key`'s token and key; nil when no write kept an answer there (in the last 24 hours).
    func keptAnswer(for key: IdempotencyKey) async throws -> KeptAnswer?
}

/// What an idempotency key already holds.
package enum KeptAnswer: Sendable, Equatable {
    /// The same request was written: its answer.
    case answered(StoredResponse)
    /// The key was kept for another request.
    case reusedForAnotherRequest
}

/// A response as kept for retries.
package struct StoredResponse: Sendable, Equatable {
    package var status: Int
    package var contentType: String?
    package var location: String?
    package var body: [UInt8]

    package init(status: Int, contentType: String?, location: String?, body: [UInt8]) {
        (self.status, self.contentType, self.location, self.body) = (status, contentType, location, body)
    }
}

/// A write found its key taken by a request with the same key that committed first (a concurrent retry): that
/// request's answer is the one to give.
package struct IdempotencyKeyTaken: Error, Sendable, Equatable {
    package let key: String

    package init(key: String) { self.key = key }
}
