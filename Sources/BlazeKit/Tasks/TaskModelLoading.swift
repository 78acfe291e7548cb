import BlazeEngine
import Foundation

extension TasksError {
    /// The model at `url`: `.modelNotFound` when it cannot be read, `.invalidModel` when it is not a
    /// valid model; `hint` (e.g. how to make the folder) follows a missing file's message.
    static func loadModel(_ url: URL, hint: String? = nil) throws -> Model {
        do {
            return try Model(contentsOf: url)
        } catch let error as BlazeError {
            // The file's errors name its path already; the others (the kernel level) get it here.
            let message = error.context == nil ? error.within(url.path).description : error.description
            if error.kind == .io { throw TasksError.modelNotFound(message + (hint.map { " (\($0))" } ?? ""), underlying: error) }
            throw TasksError.invalidModel(message, underlying: error)
        } catch {
            throw TasksError.invalidModel("\(url.path): \(error)", underlying: nil)
        }
    }
}
