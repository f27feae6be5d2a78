import Glibc
import Foundation
import SearchIndex
import SearchSnapshot
import SearchSupport

/// The engine saved beside its store (`index.sqlite.snapshot`), so that a
/// new process loads the serving structures instead of rebuilding them
/// from every record.
///
/// The file is a cache: it is used only when its generation is the store's
/// current one (every write to the store draws a new generation), its
/// length and checksum hold, and the engine reads it whole. Anything else
/// means "rebuild from the records", never an error the user sees.
///
/// ```
/// magic "SLSNAP03" · generation (length, UTF-8) · summary (length, checksum, JSON)
///                  · run (length, checksum) · zeros · payload length · checksum · payload
/// ```
///
/// The summary (`IndexSummary`) is what `index stats` reports, read
/// without the payload. The payload keeps no attribute set: its records'
/// sets are read from the store's bodies (`StoredRun`), whose run must have
/// the length and checksum noted here. The zeros make the header a
/// multiple of 16 bytes, so the payload starts as aligned as the mapping:
/// its columns are used where they lie.
enum SnapshotFile {
    private static let magic = Array("SLSNAP03".utf8)

    /// Zeros after a generation and a summary of these lengths.
    private static func padding(generation: Int, summary: Int) -> Int {
        let header = magic.count + 4 + generation + 12 + summary + 16 + 16
        return (16 - header % 16) % 16
    }

    /// Where the snapshot of the store at `storePath` lives.
    static func path(forStore storePath: String) -> String { storePath + ".snapshot" }

    /// Writes `engine` as the snapshot of `generation`, replacing any other
    /// in one rename, so a reader sees the old file or the new one whole.
    static func write(_ engine: SearchEngine, generation: String, summary: IndexSummary, run: StoredRun, to path: String) throws {
        removeTemporariesOfEndedWriters(of: path)
        let temporary = path + ".tmp-\(getpid())"
        let descriptor = open(temporary, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
        guard descriptor >= 0 else { throw SnapshotWriteError(path: temporary, code: errno) }
        var closed = false
        defer {
            if !closed { close(descriptor) }
            unlink(temporary)
        }
        var header = magic
        let generationBytes = Array(generation.utf8)
        withUnsafeBytes(of: UInt32(generationBytes.count).littleEndian) { header.append(contentsOf: $0) }
        header.append(contentsOf: generationBytes)
        let summaryBytes = try [UInt8](JSONEncoder().encode(summary))
        var summaryChecksum = SnapshotChecksum()
        summaryBytes.withUnsafeBytes { summaryChecksum.update($0) }
        withUnsafeBytes(of: UInt32(summaryBytes.count).littleEndian) { header.append(contentsOf: $0) }
        withUnsafeBytes(of: summaryChecksum.value.littleEndian) { header.append(contentsOf: $0) }
        header.append(contentsOf: summaryBytes)
        withUnsafeBytes(of: UInt64(run.length).littleEndian) { header.append(contentsOf: $0) }
        withUnsafeBytes(of: run.checksum.littleEndian) { header.append(contentsOf: $0) }
        header.append(contentsOf: [UInt8](repeating: 0, count: padding(generation: generationBytes.count, summary: summaryBytes.count)))
        let lengthOffset = header.count
        header.append(contentsOf: [UInt8](repeating: 0, count: 16))
        try header.withUnsafeBytes { try writeAll(descriptor, $0, path: temporary) }

        var checksum = SnapshotChecksum()
        var length: UInt64 = 0
        try engine.writeSnapshot(setsIn: run.places) { chunk in
            checksum.update(chunk)
            length += UInt64(chunk.count)
            try writeAll(descriptor, chunk, path: temporary)
        }
        var trailer: [UInt8] = []
        withUnsafeBytes(of: length.littleEndian) { trailer.append(contentsOf: $0) }
        withUnsafeBytes(of: checksum.value.littleEndian) { trailer.append(contentsOf: $0) }
        let written = trailer.withUnsafeBytes { pwrite(descriptor, $0.baseAddress, $0.count, off_t(lengthOffset)) }
        guard written == trailer.count else { throw SnapshotWriteError(path: temporary, code: errno) }
        closed = true
        guard close(descriptor) == 0 else { throw SnapshotWriteError(path: temporary, code: errno) }
        guard rename(temporary, path) == 0 else { throw SnapshotWriteError(path: path, code: errno) }
    }

    /// Deletes the temporaries (`PATH.tmp-PID`) that writers which no
    /// longer run left beside `path`. A process stopped while it wrote
    /// (a terminal UI quit with Ctrl-C while it saved behind the screen)
    /// leaves its temporary behind, as large as a snapshot, one more each
    /// time. A live writer's is left alone.
    static func removeTemporariesOfEndedWriters(of path: String) {
        let url = URL(fileURLWithPath: path)
        let prefix = url.lastPathComponent + ".tmp-"
        let folder = url.deletingLastPathComponent().path
        guard let names = try? FileManager.default.contentsOfDirectory(atPath: folder) else { return }
        for name in names where name.hasPrefix(prefix) {
            guard let pid = pid_t(name.dropFirst(prefix.count)), pid > 0, pid != getpid() else { continue }
            if kill(pid, 0) != 0, errno == ESRCH {
                unlink(folder + "/" + name)
            }
        }
    }

    private static func writeAll(_ descriptor: Int32, _ bytes: UnsafeRawBufferPointer, path: String) throws {
        var offset = 0
        while offset < bytes.count {
            let count = Glibc.write(descriptor, bytes.baseAddress! + offset, bytes.count - offset)
            if count < 0, errno == EINTR { continue }
            guard count > 0 else { throw SnapshotWriteError(path: path, code: errno) }
            offset += count
        }
    }

    /// The generation the snapshot at `path` was saved for and its
    /// summary, read from its header alone (nil: no readable header).
    /// Cheap at any size: nothing of the payload is read or checked.
    static func header(at path: String) -> (generation: String, summary: IndexSummary)? {
        guard let handle = FileHandle(forReadingAtPath: path) else { return nil }
        defer { try? handle.close() }
        func littleEndian(_ count: Int) -> UInt64? {
            guard let bytes = try? handle.read(upToCount: count), bytes.count == count else { return nil }
            return bytes.reversed().reduce(0) { $0 << 8 | UInt64($1) }
        }
        guard let head = try? handle.read(upToCount: magic.count), Array(head) == magic,
              let generationLength = littleEndian(4), generationLength <= 1_024,
              let generation = try? handle.read(upToCount: Int(generationLength)), generation.count == Int(generationLength),
              let summaryLength = littleEndian(4), let expected = littleEndian(8),
              summaryLength <= 1 << 30,
              let summaryBytes = try? handle.read(upToCount: Int(summaryLength)), summaryBytes.count == Int(summaryLength)
        else { return nil }
        var checksum = SnapshotChecksum()
        summaryBytes.withUnsafeBytes { checksum.update($0) }
        guard checksum.value == expected, let summary = try? JSONDecoder().decode(IndexSummary.self, from: summaryBytes) else { return nil }
        return (String(decoding: generation, as: UTF8.self), summary)
    }

    /// The engine saved at `path` and its generation, when `accepts` that
    /// generation (asked before the file is checked and read), or why
    /// there is none. `sets` reads the run of sets the snapshot's records
    /// refer to, given the length and checksum it must have (nil: the
    /// store lays out another).
    static func read(
        at path: String, accepting accepts: (String) -> Bool, sets: (_ length: Int, _ checksum: UInt64) throws -> RunBuffer?
    ) -> Result<(engine: SearchEngine, generation: String), SnapshotMiss> {
        let descriptor = open(path, O_RDONLY)
        guard descriptor >= 0 else { return .failure(.missing) }
        defer { close(descriptor) }
        var info = stat()
        guard fstat(descriptor, &info) == 0, info.st_size > 0 else { return .failure(.damaged("empty")) }
        let size = Int(info.st_size)
        guard let mapping = mmap(nil, size, PROT_READ, MAP_PRIVATE, descriptor, 0), mapping != MAP_FAILED else {
            return .failure(.damaged("cannot be mapped"))
        }
        // Unmapped when the last column borrowed from it goes (at once, when none is).
        let owner = Mapping(start: mapping, size: size)
        let bytes = UnsafeRawBufferPointer(start: mapping, count: size)
        // The file's pages count in this process's memory while mapped, and
        // a whole file resident beside the structures built from it would
        // make a cold start's peak the file's size larger. The checksum
        // reads the file without mapping it; pages
        // the load maps are dropped through the mapping's `dropPages` as
        // each section is built and as the background copies go (they
        // come back from the page cache if touched again: nothing is lost).
        var offset = 0
        func take(_ count: Int) -> UnsafeRawBufferPointer? {
            guard count <= bytes.count - offset else { return nil }
            defer { offset += count }
            return UnsafeRawBufferPointer(rebasing: bytes[offset..<(offset + count)])
        }
        guard let head = take(magic.count), Array(head) == magic,
              let generationLength = take(4).map({ UInt32(littleEndian: $0.loadUnaligned(as: UInt32.self)) }),
              let savedGeneration = take(Int(generationLength)).map({ String(decoding: $0, as: UTF8.self) }),
              let summaryLength = take(4).map({ Int(UInt32(littleEndian: $0.loadUnaligned(as: UInt32.self))) }),
              take(8) != nil, take(summaryLength) != nil,
              let runLength = take(8).map({ UInt64(littleEndian: $0.loadUnaligned(as: UInt64.self)) }),
              let runChecksum = take(8).map({ UInt64(littleEndian: $0.loadUnaligned(as: UInt64.self)) }),
              take(padding(generation: Int(generationLength), summary: summaryLength)) != nil,
              let length = take(8).map({ UInt64(littleEndian: $0.loadUnaligned(as: UInt64.self)) }),
              let expected = take(8).map({ UInt64(littleEndian: $0.loadUnaligned(as: UInt64.self)) })
        else { return .failure(.damaged("the header is cut short")) }
        guard accepts(savedGeneration) else { return .failure(.stale) }
        guard length == UInt64(bytes.count - offset), let payload = take(Int(length)) else {
            return .failure(.damaged("its length does not match the file"))
        }
        let checksum = SnapshotChecksum.of(
            descriptor: descriptor, offset: payload.baseAddress! - bytes.baseAddress!, count: payload.count,
            workers: ParallelWork.workerCount)
        guard checksum?.value == expected else { return .failure(.damaged("its checksum does not match")) }
        guard runLength <= UInt64(Int.max), let run = try? sets(Int(runLength), runChecksum) else {
            return .failure(.damaged("the store's records are not the ones it was saved with"))
        }
        do {
            // The checksums held: the bytes are the writer's.
            let engine = try SearchEngine(
                snapshot: payload, owner: owner, verified: true,
                sets: (UnsafeRawBufferPointer(start: run.bytes.baseAddress, count: Int(runLength)), run))
            return .success((engine, savedGeneration))
        } catch {
            return .failure(.damaged(error.message))
        }
    }
}

/// A read-only mapping of a snapshot file, unmapped when the last engine
/// column that reads from it is gone. The file is only ever replaced by a
/// rename (`SnapshotFile.write`), never changed in place, so the mapped
/// pages stay what was checked.
private final class Mapping: DroppablePages, @unchecked Sendable {
    // Immutable after init; the pages are read-only.
    let start: UnsafeMutableRawPointer
    let size: Int

    init(start: UnsafeMutableRawPointer, size: Int) {
        self.start = start
        self.size = size
    }

    /// Safe at any moment: the mapping is private and never written, so a
    /// dropped page reads the same from the page cache.
    func dropPages() { madvise(start, size, MADV_DONTNEED) }

    func dropPages(in bytes: UnsafeRawBufferPointer) {
        guard let base = bytes.baseAddress else { return }
        // The whole pages inside both the bytes and the mapping.
        let page = UInt(getpagesize())
        let mapped = UInt(bitPattern: start)
        let low = max(UInt(bitPattern: base), mapped), high = min(UInt(bitPattern: base) + UInt(bytes.count), mapped + UInt(size))
        let first = (low + page - 1) / page * page, end = high / page * page
        guard first < end, let pointer = UnsafeMutableRawPointer(bitPattern: first) else { return }
        madvise(pointer, Int(end - first), MADV_DONTNEED)
    }

    deinit { munmap(start, size) }
}

/// Why a snapshot was not loaded (the caller rebuilds from the records).
enum SnapshotMiss: Error, Equatable {
    case missing
    /// Saved for another generation of the store.
    case stale
    case damaged(String)
}

/// A snapshot could not be written (the store is unaffected).
public struct SnapshotWriteError: Error, CustomStringConvertible, Sendable {
    public var path: String
    public var code: Int32
    public var description: String { "\(path): cannot write the snapshot (\(String(cString: strerror(code))))" }
}
