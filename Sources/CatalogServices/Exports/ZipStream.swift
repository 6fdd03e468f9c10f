import CCompression

/// A zip written front to back, an entry at a time, so an export of any size goes to its reader as it is made: each
/// entry is stored (pictures are compressed already) with its size and CRC in its local header, and only the central
/// directory (about 100 bytes an entry) is held until `finish`. Zip64 records are written once an offset, a size or the
/// entry count passes what the classic fields hold (`limits` lowers those bounds for tests). Every date is 1980-01-01,
/// so the same files make the same bytes.
package struct ZipStream: Sendable {
    package struct Limits: Sendable {
        package var offset: UInt64
        package var entries: Int
        package init(offset: UInt64 = 0xFFFF_FFFF, entries: Int = 0xFFFF) {
            (self.offset, self.entries) = (offset, entries)
        }
    }

    private let limits: Limits
    private var central: [UInt8] = []
    private var entries = 0
    /// Bytes handed out so far: where the next entry starts.
    package private(set) var offset: UInt64 = 0

    package init(limits: Limits = Limits()) {
        self.limits = limits
    }

    /// The bytes of one entry (its local header and data), to send before the next.
    package mutating func entry(path: String, bytes: [UInt8]) -> [UInt8] {
        let name = Array(path.utf8)
        let crc = bytes.withUnsafeBufferPointer { UInt32(crc32(0, $0.baseAddress, UInt32($0.count))) }
        let size = UInt32(bytes.count)
        var local: [UInt8] = []
        local.reserveCapacity(30 + name.count + bytes.count)
        local.le(0x0403_4b50 as UInt32)
        local.le(20 as UInt16)
        Self.common(&local, crc: crc, size: size, name: name)
        local.le(0 as UInt16)  // no extra field
        local += name
        local += bytes
        let wide = offset >= limits.offset
        central.le(0x0201_4b50 as UInt32)
        central.le(0x031E as UInt16)  // made by Unix, zip 3.0
        central.le(wide ? 45 : 20 as UInt16)
        Self.common(&central, crc: crc, size: size, name: name)
        central.le(wide ? 12 : 0 as UInt16)
        central.le(0 as UInt16)  // comment
        central.le(0 as UInt16)  // disk
        central.le(0 as UInt16)  // internal attributes
        central.le(UInt32(0o100644) << 16)  // a regular file, rw-r--r--
        central.le(wide ? 0xFFFF_FFFF : UInt32(offset))
        central += name
        if wide {
            central.le(1 as UInt16)  // Zip64 extended information: the offset alone
            central.le(8 as UInt16)
            central.le(offset)
        }
        entries += 1
        offset += UInt64(local.count)
        return local
    }

    /// The central directory and its end records, the zip's last bytes.
    package mutating func finish() -> [UInt8] {
        var end = central
        let start = offset
        let size = UInt64(central.count)
        let wide = entries >= limits.entries || start >= limits.offset || size >= limits.offset
        if wide {
            let record = start + size
            end.le(0x0606_4b50 as UInt32)
            end.le(44 as UInt64)
            end.le(0x031E as UInt16)
            end.le(45 as UInt16)
            end.le(0 as UInt32)
            end.le(0 as UInt32)
            end.le(UInt64(entries))
            end.le(UInt64(entries))
            end.le(size)
            end.le(start)
            end.le(0x0706_4b50 as UInt32)
            end.le(0 as UInt32)
            end.le(record)
            end.le(1 as UInt32)
        }
        end.le(0x0605_4b50 as UInt32)
        end.le(0 as UInt16)
        end.le(0 as UInt16)
        end.le(wide ? 0xFFFF : UInt16(entries))
        end.le(wide ? 0xFFFF : UInt16(entries))
        end.le(wide ? 0xFFFF_FFFF : UInt32(size))
        end.le(wide ? 0xFFFF_FFFF : UInt32(start))
        end.le(0 as UInt16)
        central = []
        offset += UInt64(end.count)
        return end
    }

    /// The fields local and central headers share, from flags to the name's length.
    private static func common(_ bytes: inout [UInt8], crc: UInt32, size: UInt32, name: [UInt8]) {
        bytes.le(0x0800 as UInt16)  // names are UTF-8
        bytes.le(0 as UInt16)  // stored
        bytes.le(0 as UInt16)  // 00:00
        bytes.le(0x0021 as UInt16)  // 1980-01-01
        bytes.le(crc)
        bytes.le(size)
        bytes.le(size)
        bytes.le(UInt16(name.count))
    }
}

extension [UInt8] {
    fileprivate mutating func le<T: FixedWidthInteger>(_ value: T) {
        Swift.withUnsafeBytes(of: value.littleEndian) { append(contentsOf: $0) }
    }
}
