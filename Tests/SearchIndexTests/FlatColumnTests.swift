import Testing
@testable import SearchIndex

/// A column borrowed from a loaded snapshot reads as an array and changes
/// as a copy: the borrowed bytes are never written.
@Suite struct FlatColumnTests {
    final class Keeper: Sendable {}

    @Test func aColumnActsAsAnArray() {
        var column = FlatColumn<UInt32>()
        var array: [UInt32] = []
        for value in 0..<1_000 as Range<UInt32> {
            column.append(value &* 2_654_435_761)
            array.append(value &* 2_654_435_761)
        }
        column.append(contentsOf: [7, 8, 9])
        array.append(contentsOf: [7, 8, 9])
        #expect(Array(column) == array)
        column[10] = 1
        array[10] = 1
        #expect(Array(column) == array)
        #expect(column.elements(in: 5..<20) == Array(array[5..<20]))
        #expect(column.withUnsafeBufferPointer { Array($0) } == array)
    }

    @Test func copiesChangeAlone() {
        let original = FlatColumn<UInt64>([1, 2, 3])
        var changed = original
        changed[0] = 9
        var grown = original
        grown.append(4)
        #expect(Array(original) == [1, 2, 3])
        #expect(Array(changed) == [9, 2, 3])
        #expect(Array(grown) == [1, 2, 3, 4])
    }

    @Test func aBorrowedColumnReadsInPlaceAndCopiesWhenChanged() {
        let source: [Int32] = Array(0..<64)
        source.withUnsafeBufferPointer { values in
            let borrowed = FlatColumn(borrowing: values.baseAddress!, count: values.count, owner: Keeper())
            #expect(borrowed.isBorrowed)
            #expect(Array(borrowed) == source)
            borrowed.withUnsafeBufferPointer { #expect($0.baseAddress == values.baseAddress) }

            var written = borrowed
            written[3] = -1
            var appended = borrowed
            appended.append(64)
            var reserved = borrowed
            reserved.reserveCapacity(10)
            #expect(!written.isBorrowed && !appended.isBorrowed && !reserved.isBorrowed)
            #expect(written[3] == -1 && Array(appended) == source + [64] && Array(reserved) == source)
            #expect(Array(borrowed) == source && borrowed.isBorrowed)
        }
        #expect(source == Array(0..<64))
    }

    /// Most posting lists hold one posting: such a column keeps it in
    /// itself (room for exactly one, no buffer) and acts as an array
    /// through every change.
    @Test func aColumnOfOneValueHoldsItInItselfAndActsAsAnArray() {
        var column = FlatColumn<UInt32>()
        column.append(7)
        #expect(column.count == 1 && column.capacity == 1 && !column.isBorrowed)
        #expect(Array(column) == [7] && column[0] == 7 && column.elements(in: 0..<1) == [7])
        #expect(column.withUnsafeBufferPointer { Array($0) } == [7])
        let copy = column
        column[0] = 8
        column.withUnsafeMutableBufferPointer { $0[0] += 1 }
        #expect(Array(column) == [9] && Array(copy) == [7])
        var grown = column
        grown.append(contentsOf: [10, 11])
        #expect(Array(grown) == [9, 10, 11] && Array(column) == [9])
        column.removeLast()
        #expect(column.isEmpty && Array(column) == [] && Array(copy) == [7])
        column.append(contentsOf: [5])
        #expect(column.capacity == 1 && Array(column) == [5])
        column.reserveCapacity(3)
        #expect(column.capacity >= 3 && Array(column) == [5])
        #expect(FlatColumn<UInt32>([1, 2, 3, 4, 5, 6, 7, 8, 9, 10]).ownedCopy(capacity: 10).count == 10)
        #expect(Array(copy.ownedCopy(capacity: 4)) == [7])
    }
}
