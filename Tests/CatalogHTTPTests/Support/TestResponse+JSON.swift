import Foundation
import HummingbirdTesting

extension TestResponse {
    /// The body parsed as a JSON object; empty when it is not one.
    var json: [String: Any] {
        (try? JSONSerialization.jsonObject(with: Data(buffer: body))) as? [String: Any] ?? [:]
    }
}
