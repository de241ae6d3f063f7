#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A growable byte buffer with a stable address between growths, for `validate`'s chunks and
/// output records.
///
/// Unlike `[UInt8]`, its spare capacity can be written in place (``reserve(_:)`` then
/// ``SpanWriter``), with no uniqueness or capacity check per byte, and its address can be
/// handed to other threads while the owner leaves it alone. One owner at a time; not thread-safe.
final class _ByteBuffer: @unchecked Sendable {
    // One owner at a time and no re-entry: the runtime's exclusivity checks (a call per access
    // that spans a call, per record) have nothing to find.
    @exclusivity(unchecked) private(set) var base: UnsafeMutablePointer<UInt8>
    @exclusivity(unchecked) private(set) var capacity: Int
    /// Bytes written so far, from ``base``.
    @exclusivity(unchecked) var count = 0

    init(capacity: Int) {
        self.capacity = max(capacity, 64)
        base = .allocate(capacity: self.capacity)
    }

    deinit { base.deallocate() }

    /// The bytes written.
    var bytes: UnsafeRawBufferPointer { UnsafeRawBufferPointer(start: base, count: count) }

    /// Where the next byte goes; room for `reserve`d bytes.
    var end: UnsafeMutablePointer<UInt8> { base + count }

    /// Makes room for `extra` more bytes (moving the bytes when it grows).
    @inline(__always)
    func reserve(_ extra: Int) {
        if capacity &- count < extra { grow(extra) }
    }

    private func grow(_ extra: Int) {
        let wanted = max(capacity * 2, count + extra)
        let grown = UnsafeMutablePointer<UInt8>.allocate(capacity: wanted)
        if count > 0 { grown.update(from: base, count: count) }
        base.deallocate()
        base = grown
        capacity = wanted
    }

    /// Appends bytes.
    func append(_ source: UnsafeRawBufferPointer) {
        guard let from = source.baseAddress, source.count > 0 else { return }
        reserve(source.count)
        memcpy(base + count, from, source.count)
        count &+= source.count
    }

    /// Forgets the bytes, keeping the capacity.
    func removeAll() { count = 0 }
}
