import Foundation

/// Functions and variables found at run time in the process's global symbol scope: the
/// executable, the libraries linked at start and those opened with `RTLD_GLOBAL`.
package enum ProcessSymbols {
    /// The address of `name`, or nil when no loaded library exports it.
    package static func address(of name: String) -> UnsafeMutableRawPointer? {
        guard let process = dlopen(nil, RTLD_NOW) else { return nil }
        return dlsym(process, name)
    }
}
