/// Bad input, reported as one line naming the file, the line and the field.
public struct ImportError: Error, CustomStringConvertible, Sendable, Equatable {
    public var file: String
    public var line: Int
    /// Dotted path of the offending field (`attributeSet.title`), or `-`.
    public var field: String
    public var message: String
    /// The input is not there at all (exit 66, not 65): nothing was read.
    public var isMissingInput = false

    public init(file: String, line: Int, field: String, message: String) {
        self.file = file
        self.line = line
        self.field = field
        self.message = message
    }

    /// A file or folder that does not exist.
    public static func missing(_ file: String, _ message: String = "no such file") -> ImportError {
        var error = ImportError(file: file, line: 0, field: "-", message: message)
        error.isMissingInput = true
        return error
    }

    public var description: String { "\(file):\(line): \(field): \(message)" }
}
