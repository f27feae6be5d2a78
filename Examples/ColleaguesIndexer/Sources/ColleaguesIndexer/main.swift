import Foundation
import SearchlightSpotlight

// The sample apps' models, as they would be on iOS.
struct Employee {
    var id: Int
    var name: String
    var department: String
    var title: String
    var phone: String
    var email: String
    var skills: [String]
}

struct Show {
    var id: Int
    var name: String
    var genre: String
    var airTime: String
    var audience: Int
}

let employees = [
    Employee(id: 101, name: "Ada Lindqvist", department: "Engineering", title: "Search Engineer",
             phone: "+1 (555) 010-3101", email: "ada.lindqvist@colleagues.example.com", skills: ["spotlight", "swift", "ranking"]),
    Employee(id: 102, name: "Tomás Ferreira", department: "Design", title: "Interaction Designer",
             phone: "+1 (555) 010-3102", email: "tomas.ferreira@colleagues.example.com", skills: ["prototyping", "typography"]),
]
let shows = [
    Show(id: 101, name: "Glacier Nights", genre: "Documentary", airTime: "Sundays 21:00", audience: 900),
    Show(id: 102, name: "Kitchen Atlas", genre: "Cooking", airTime: "Fridays 19:30", audience: 300),
]

// MARK: - The Colleagues sample's indexing, as written for Core Spotlight

func searchableItem(for employee: Employee) -> CSSearchableItem {
    let attributeSet = CSSearchableItemAttributeSet(itemContentType: kUTTypeContact as String)
    attributeSet.title = employee.name
    attributeSet.contentDescription = "\(employee.title), \(employee.department)"
    attributeSet.phoneNumbers = [employee.phone]
    attributeSet.emailAddresses = [employee.email]
    attributeSet.supportsPhoneCall = true
    attributeSet.keywords = employee.skills
    // A contact thumbnail: a tiny PNG header is enough for its metadata.
    var png: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A, 0, 0, 0, 13, 0x49, 0x48, 0x44, 0x52, 0, 0, 0, 96, 0, 0, 0, 96]
    png += [UInt8](repeating: 0, count: 200)
    attributeSet.thumbnailData = Data(png)
    return CSSearchableItem(uniqueIdentifier: "employee/\(employee.id)",
                            domainIdentifier: "com.example.colleagues.employee", attributeSet: attributeSet)
}

// MARK: - The TV-show sample's indexing

func searchableItem(for show: Show) -> CSSearchableItem {
    let attributeSet = CSSearchableItemAttributeSet(contentType: UTType.movie)
    attributeSet.title = show.name
    attributeSet.contentDescription = "\(show.genre) · \(show.airTime)"
    attributeSet.keywords = [show.genre.lowercased()]
    attributeSet.rankingHint = NSNumber(value: show.audience)
    return CSSearchableItem(uniqueIdentifier: "show/\(show.id)", domainIdentifier: "com.example.tv.show", attributeSet: attributeSet)
}

/// Indexes everything, as the app does at launch.
func indexEverything(into index: CSSearchableIndex) async throws {
    try await index.indexSearchableItems(employees.map(searchableItem(for:)) + shows.map(searchableItem(for:)))
}

let index = CSSearchableIndex.default()
do {
    try await indexEverything(into: index)
} catch {
    print("indexing failed: \(error)")
    exit(1)
}

// A viewed employee, as the app's detail screen makes current.
let activity = NSUserActivity(activityType: "com.example.colleagues.view-employee")
activity.title = employees[0].name
activity.userInfo = ["id": employees[0].id]
activity.requiredUserInfoKeys = ["id"]
activity.keywords = ["colleague", "engineering"]
activity.isEligibleForSearch = true
let related = CSSearchableItemAttributeSet(contentType: UTType.contact)
related.relatedUniqueIdentifier = "employee/\(employees[0].id)"
activity.contentAttributeSet = related
activity.becomeCurrent()

print("indexed \(employees.count) employees and \(shows.count) shows into \(index.path)")
