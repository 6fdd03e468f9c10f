import CatalogCore

/// Writes search answers' JSON straight into bytes: Foundation's JSONEncoder took over half the CPU of an uncached
/// search (measured with perf at 10,000 stickers), for bodies whose shape is fixed. Keys in sorted order, no spaces, as
/// `JSONEncoder.catalog` writes them; strings escaped as `LogLine` escapes them (quotes, backslashes, controls).
package struct SearchJSON {
    package private(set) var bytes: [UInt8] = []
    private var first = true

    package init(capacity: Int = 4096) {
        bytes.reserveCapacity(capacity)
    }

    /// `{` … `}` around what `body` writes.
    package mutating func object(_ body: (inout SearchJSON) -> Void) {
        open(UInt8(ascii: "{"))
        body(&self)
        close(UInt8(ascii: "}"))
    }

    /// `[` … `]` around an element per item of `items`.
    package mutating func array<T>(_ items: some Sequence<T>, _ element: (inout SearchJSON, T) -> Void) {
        open(UInt8(ascii: "["))
        for item in items { element(&self, item) }  // each value writes its own comma
        close(UInt8(ascii: "]"))
    }

    package mutating func key(_ name: StaticString) {
        comma()
        bytes.append(UInt8(ascii: "\""))
        bytes.append(contentsOf: UnsafeRawBufferPointer(start: name.utf8Start, count: name.utf8CodeUnitCount))
        bytes.append(contentsOf: #"":"#.utf8)
        first = true  // the value that follows takes no comma
    }

    package mutating func string(_ value: String?) {
        comma()
        guard var value else { return bytes.append(contentsOf: "null".utf8) }
        value.withUTF8 { LogLine.appendEscaped(UnsafeRawBufferPointer($0), to: &bytes, quoted: true) }
    }

    package mutating func int(_ value: some BinaryInteger) {
        comma()
        bytes.append(contentsOf: String(value).utf8)
    }

    package mutating func bool(_ value: Bool) {
        comma()
        bytes.append(contentsOf: (value ? "true" : "false").utf8)
    }

    /// A value already written as JSON (a cached result's object).
    package mutating func raw(_ value: [UInt8]) {
        comma()
        bytes.append(contentsOf: value)
    }

    package mutating func strings(_ values: [String]) {
        array(values) { $0.string($1) }
    }

    package mutating func field(_ name: StaticString, _ value: String?) {
        key(name)
        string(value)
    }
    package mutating func field(_ name: StaticString, _ value: Int) {
        key(name)
        int(value)
    }
    package mutating func field(_ name: StaticString, _ value: Int64) {
        key(name)
        int(value)
    }
    package mutating func field(_ name: StaticString, _ value: Bool) {
        key(name)
        bool(value)
    }
    package mutating func field(_ name: StaticString, _ values: [String]) {
        key(name)
        strings(values)
    }

    private mutating func open(_ byte: UInt8) {
        comma()
        bytes.append(byte)
        first = true
    }

    private mutating func close(_ byte: UInt8) {
        bytes.append(byte)
        first = false
    }

    /// A comma before every value but the first of an object or array (a key's value never takes one).
    private mutating func comma() {
        if !first { bytes.append(UInt8(ascii: ",")) }
        first = false
    }
}
