import BlazeEngine
import Foundation

extension TasksError {
    /// The model at `url`: `.modelNotFound` when it cannot be read, `.invalidModel` when it is not a
    /// valid model; `hint` (e.g. how to make the folder) follows a missing file's message.
    static func loadModel(_ url: URL, hint: String? = nil) throws -> Model {
        do {
            return try Model(contentsOf: url)
        } catch let error as BlazeError where error.kind == .io {
            throw TasksError.modelNotFound("\(url.path): \(error)" + (hint.map { " (\($0))" } ?? ""), underlying: error)
        } catch {
            throw TasksError.invalidModel("\(url.path): \(error)", underlying: error as? BlazeError)
        }
    }
}
