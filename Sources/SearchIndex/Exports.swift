/// The engine answers with the model's items: a client that imports the
/// engine reads them without a second import.
@_exported import SearchModel
