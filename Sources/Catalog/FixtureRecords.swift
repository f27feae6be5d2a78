import Foundation
import SearchIndex

/// The shapes of the bundled fixture files in `Data/`.
enum FixtureRecords {
    struct Employee: Decodable {
        var id: Int
        var name: String
        var department: String
        var title: String
        var phone: String
        var email: String
        var skills: [String]
        var picture: Thumbnail?
    }

    struct Show: Decodable {
        var id: Int
        var name: String
        var genre: String
        var airTime: String
        var description: String?
        var rating: Double?
        var url: String?
        var poster: Thumbnail?
        /// ISO 8601; the show leaves the index then.
        var expires: Date?
        /// Viewers of an episode: the show's `rankingHint`.
        var audience: Int?
    }

    struct Collection: Decodable {
        var id: Int
        var title: String
        var description: String?
        var keywords: [String]?
        var visibility: Visibility
        var url: String?
        var thumbnail: Thumbnail?
    }

    struct Photo: Decodable {
        var id: Int
        var title: String
        var description: String?
        var keywords: [String]?
        var visibility: Visibility
        var takenAt: String?
        var thumbnail: Thumbnail?
        var url: String?
        var album: Int?
        var group: Int?
        /// How many people marked the photo a favourite: its `rankingHint`.
        var favorites: Int?
    }
}
