/// The engine answers with the model's items: a client that imports the
/// engine reads them without a second import.
@_exported import SearchModel

/// Queries are split into terms by the engine's own rules: a client that
/// shows matches (the screen's highlights) splits them the same way.
@_exported import SearchText
