/// Bad input, reported as one line naming the file, the line and the field.
public struct ImportError: Error, CustomStringConvertible, Sendable, Equatable {
    public var file: String
    public var line: Int
    /// Dotted path of the offending field (`attributeSet.title`), or `-`.
    public var field: String
    public var message: String

    public init(file: String, line: Int, field: String, message: String) {
        self.file = file
        self.line = line
        self.field = field
        self.message = message
    }

    public var description: String { "\(file):\(line): \(field): \(message)" }
}
