import Foundation

/// The one spelling of a date that the importers accept, the store writes
/// and every load reads back: ISO 8601 in the proleptic Gregorian calendar,
/// whole seconds, years 0001 through 9999.
///
/// Import, storage and load share it, so a date that was accepted can
/// always be read back (a date Foundation's formatter accepts, such as year
/// -1, once wrote a body that no load could read).
public enum StoredDate {
    /// 0001-01-01T00:00:00Z.
    public static let earliest = Date(timeIntervalSince1970: Double(daysFromCivil(year: 1, month: 1, day: 1) * 86_400))
    /// 9999-12-31T23:59:59Z.
    public static let latest = Date(timeIntervalSince1970: Double(daysFromCivil(year: 9_999, month: 12, day: 31) * 86_400 + 86_399))

    /// Why `parse` refused a text, for an import error.
    public static let expectation = "expected an ISO 8601 date from 0001-01-01 to 9999-12-31 (e.g. 2026-11-22T10:00:00Z)"

    /// `YYYY-MM-DD` or `YYYY-MM-DDTHH:MM:SS[.fraction](Z|±HH:MM)`, rounded
    /// down to the second; nil when malformed or outside the years 1–9999.
    public static func parse(_ text: String) -> Date? {
        let bytes = Array(text.utf8)
        guard bytes.count >= 10, bytes[4] == UInt8(ascii: "-"), bytes[7] == UInt8(ascii: "-"),
              let year = number(bytes, 0, 4), let month = number(bytes, 5, 2), let day = number(bytes, 8, 2),
              (1...9_999).contains(year), (1...12).contains(month), (1...daysIn(month: month, year: year)).contains(day)
        else { return nil }
        var seconds = daysFromCivil(year: year, month: month, day: day) * 86_400
        if bytes.count > 10 {
            guard let time = timeOfDay(bytes[10...]) else { return nil }
            seconds += time
        }
        let date = Date(timeIntervalSince1970: Double(seconds))
        return (earliest...latest).contains(date) ? date : nil
    }

    /// `THH:MM:SS[.fraction](Z|±HH:MM)`, as seconds after midnight UTC
    /// (negative or past a day when the offset crosses midnight).
    private static func timeOfDay(_ rest: ArraySlice<UInt8>) -> Int? {
        let bytes = Array(rest)
        guard bytes.count >= 9, bytes[0] == UInt8(ascii: "T") || bytes[0] == UInt8(ascii: "t"),
              bytes[3] == UInt8(ascii: ":"), bytes[6] == UInt8(ascii: ":"),
              let hour = number(bytes, 1, 2), let minute = number(bytes, 4, 2), let second = number(bytes, 7, 2),
              hour < 24, minute < 60, second < 60
        else { return nil }
        var i = 9
        if i < bytes.count, bytes[i] == UInt8(ascii: ".") {
            i += 1
            let digits = i
            while i < bytes.count, (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(bytes[i]) { i += 1 }
            guard i > digits else { return nil }
        }
        let local = hour * 3_600 + minute * 60 + second
        guard i < bytes.count else { return nil }
        if i + 1 == bytes.count, bytes[i] == UInt8(ascii: "Z") || bytes[i] == UInt8(ascii: "z") { return local }
        guard i + 6 == bytes.count, bytes[i] == UInt8(ascii: "+") || bytes[i] == UInt8(ascii: "-"),
              bytes[i + 3] == UInt8(ascii: ":"),
              let offsetHours = number(bytes, i + 1, 2), let offsetMinutes = number(bytes, i + 4, 2),
              offsetHours < 24, offsetMinutes < 60
        else { return nil }
        let offset = offsetHours * 3_600 + offsetMinutes * 60
        return bytes[i] == UInt8(ascii: "+") ? local - offset : local + offset
    }

    /// `YYYY-MM-DDTHH:MM:SSZ`: rounded down to the second and held to
    /// `earliest...latest`, so every date has a spelling `parse` reads.
    public static func format(_ date: Date) -> String {
        String(decoding: formatBytes(date), as: UTF8.self)
    }

    static func formatBytes(_ date: Date) -> [UInt8] {
        // NaN compares false both ways: held at the latest, as "never" is.
        let held = date.timeIntervalSince1970.isNaN ? latest : min(max(date, earliest), latest)
        let total = Int(held.timeIntervalSince1970.rounded(.down))
        let days = total >= 0 ? total / 86_400 : (total - 86_399) / 86_400
        let secondOfDay = total - days * 86_400
        let (year, month, day) = civilFromDays(days)
        var out: [UInt8] = []
        out.reserveCapacity(20)
        func digits(_ value: Int, _ count: Int) {
            var divisor = 1
            for _ in 1..<count { divisor *= 10 }
            var rest = value
            for _ in 0..<count {
                out.append(UInt8(ascii: "0") + UInt8(rest / divisor))
                rest %= divisor
                divisor /= 10
            }
        }
        digits(year, 4); out.append(UInt8(ascii: "-")); digits(month, 2); out.append(UInt8(ascii: "-")); digits(day, 2)
        out.append(UInt8(ascii: "T"))
        digits(secondOfDay / 3_600, 2); out.append(UInt8(ascii: ":")); digits(secondOfDay / 60 % 60, 2)
        out.append(UInt8(ascii: ":")); digits(secondOfDay % 60, 2); out.append(UInt8(ascii: "Z"))
        return out
    }

    /// The JSON encoder strategy of stored bodies.
    public static let encodingStrategy = JSONEncoder.DateEncodingStrategy.custom { date, encoder in
        var container = encoder.singleValueContainer()
        try container.encode(format(date))
    }

    /// The JSON decoder strategy of stored bodies and imports.
    public static let decodingStrategy = JSONDecoder.DateDecodingStrategy.custom { decoder in
        let container = try decoder.singleValueContainer()
        let text = try container.decode(String.self)
        guard let date = parse(text) else {
            throw DecodingError.dataCorruptedError(in: container, debugDescription: expectation)
        }
        return date
    }

    static func number(_ bytes: [UInt8], _ from: Int, _ count: Int) -> Int? {
        guard from + count <= bytes.count else { return nil }
        var value = 0
        for byte in bytes[from..<(from + count)] {
            guard byte >= UInt8(ascii: "0"), byte <= UInt8(ascii: "9") else { return nil }
            value = value * 10 + Int(byte - UInt8(ascii: "0"))
        }
        return value
    }

    static func daysIn(month: Int, year: Int) -> Int {
        let leap = year % 4 == 0 && (year % 100 != 0 || year % 400 == 0)
        return [31, leap ? 29 : 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31][month - 1]
    }

    /// Days from 1970-01-01 (Hinnant's days_from_civil).
    static func daysFromCivil(year: Int, month: Int, day: Int) -> Int {
        let y = month <= 2 ? year - 1 : year
        let era = (y >= 0 ? y : y - 399) / 400
        let yearOfEra = y - era * 400
        let dayOfYear = (153 * (month + (month > 2 ? -3 : 9)) + 2) / 5 + day - 1
        let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
        return era * 146_097 + dayOfEra - 719_468
    }

    /// The civil date of a day count from 1970-01-01 (Hinnant's civil_from_days).
    static func civilFromDays(_ days: Int) -> (year: Int, month: Int, day: Int) {
        let z = days + 719_468
        let era = (z >= 0 ? z : z - 146_096) / 146_097
        let dayOfEra = z - era * 146_097
        let yearOfEra = (dayOfEra - dayOfEra / 1_460 + dayOfEra / 36_524 - dayOfEra / 146_096) / 365
        let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
        let monthIndex = (5 * dayOfYear + 2) / 153
        let day = dayOfYear - (153 * monthIndex + 2) / 5 + 1
        let month = monthIndex < 10 ? monthIndex + 3 : monthIndex - 9
        return (yearOfEra + era * 400 + (month <= 2 ? 1 : 0), month, day)
    }
}
