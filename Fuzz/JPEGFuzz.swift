// libFuzzer entry point for JPEG uploads (libjpeg-turbo under our marker reader, EXIF orientation and ICC
// conversion), compiled together with Sources/StickerImage by scripts/fuzz.sh (swiftc -sanitize=fuzzer,address).
// Any crash, leak, hang or sanitizer report is a finding.

@_cdecl("LLVMFuzzerTestOneInput")
public func jpegFuzz(_ start: UnsafePointer<UInt8>?, _ count: Int) -> CInt {
    var bytes = start.map { Array(UnsafeBufferPointer(start: $0, count: count)) } ?? []
    // Every input is read as a JPEG: a mutation of the signature would only reach the other decoders' refusal.
    guard bytes.count >= 3 else { return 0 }
    bytes.replaceSubrange(0..<3, with: [0xFF, 0xD8, 0xFF])
    fuzzUpload(bytes)
    return 0
}
