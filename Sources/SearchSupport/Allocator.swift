#if canImport(Glibc)
import Glibc
#endif

/// The C allocator, for code that frees much at once (the engine after a bulk build).
public enum Allocator {
    /// Gives the system the pages that hold only freed memory. glibc's
    /// `free` returns the top of a heap, never pages inside it, so after
    /// a bulk build lets go of many small blocks the process would go on
    /// holding them. (`malloc_trim` is glibc's
    /// and not in the module Swift imports: found by name, and skipped
    /// where it is missing.)
    public static func returnFreePages() {
        #if canImport(Glibc)
        guard let trim = mallocTrim else { return }
        _ = trim(0)
        #endif
    }

    #if canImport(Glibc)
    private typealias Trim = @convention(c) (Int) -> Int32
    private static let mallocTrim: Trim? = dlsym(UnsafeMutableRawPointer(bitPattern: 0), "malloc_trim")
        .map { unsafeBitCast($0, to: Trim.self) }
    #endif
}

/// A Swift heap object's header (its type and reference counts), for
/// estimates of the bytes a structure holds.
package enum HeapObject {
    package static let headerBytes = 16
}
