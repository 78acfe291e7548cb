import Foundation
#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Writes one or several files as one transaction: either every file is replaced by its complete
/// new contents, or (on any error) every target is left exactly as it was.
///
/// - Each file is written to a temporary file next to its target, flushed, and only then renamed
///   over it: a reader sees the old file or the whole new one.
/// - Only regular files are ever replaced. A target that is a directory, a symbolic link, a FIFO,
///   a device or a socket is refused with an error before anything is written (`-o /dev/null`
///   must not turn the device into a file).
/// - Two outputs of one transaction may not name the same file (after `.`/`..` and symbolic-link
///   resolution of their folders): that is an error, never a silent overwrite.
/// - When several files are replaced, the old contents of each are kept (a hard link) until all
///   renames succeeded; a failure in the middle renames them back.
public enum OutputFiles {
    /// One file to write: where, what, and what it is (named in errors, e.g. "output 'Identity'").
    public struct Item: Sendable {
        public var url: URL
        public var bytes: [UInt8]
        public var origin: String
        public init(url: URL, bytes: [UInt8], origin: String) {
            self.url = url; self.bytes = bytes; self.origin = origin
        }
    }

    /// Writes one file (see the type's rules).
    public static func write(_ bytes: [UInt8], to url: URL, origin: String? = nil) throws {
        try write([Item(url: url, bytes: bytes, origin: origin ?? url.lastPathComponent)])
    }

    /// Writes every item or none (see the type's rules).
    public static func write(_ items: [Item]) throws {
        let targets = try items.map { item -> String in
            guard item.url.isFileURL else { throw BlazeError(.invalidInput, "not a file URL: \(item.url.absoluteString)") }
            return canonicalPath(item.url)
        }
        try checkCollisions(items, targets)
        for (item, path) in zip(items, targets) { try checkReplaceable(path, origin: item.origin) }

        var temps: [String] = []
        var backups: [String?] = []
        var renamed = 0
        var committed = false
        defer {
            if !committed {
                // Undo in reverse: restore replaced targets, drop new ones, remove temporaries.
                for i in stride(from: renamed - 1, through: 0, by: -1) {
                    if let backup = backups[i] { rename(backup, targets[i]) } else { unlink(targets[i]) }
                }
                for i in renamed..<temps.count { unlink(temps[i]) }
                for case let backup? in backups.dropFirst(min(renamed, backups.count)) { unlink(backup) }
            }
        }
        for (item, path) in zip(items, targets) {
            temps.append(try writeTemporary(item.bytes, nextTo: path))
        }
        for path in targets {
            var st = stat()
            // One file needs no copy of its old contents: a single rename replaces it or fails.
            if targets.count > 1 && lstat(path, &st) == 0 {
                let backup = temporaryName(nextTo: path, kind: "old")
                guard link(path, backup) == 0 else {
                    backups.append(nil)
                    throw failure("cannot keep the old \(path) while it is replaced")
                }
                backups.append(backup)
            } else {
                backups.append(nil)
            }
        }
        for i in targets.indices {
            guard rename(temps[i], targets[i]) == 0 else { throw failure("cannot rename \(temps[i]) to \(targets[i])") }
            renamed += 1
        }
        committed = true
        for case let backup? in backups { unlink(backup) }
    }

    /// The target's absolute path with its folder resolved (symbolic links, `.`, `..`), so two
    /// spellings of one file compare equal. The last component itself is not followed: a link
    /// there is refused by `checkReplaceable`.
    static func canonicalPath(_ url: URL) -> String {
        let folder = url.deletingLastPathComponent()
        let resolved = folder.path.withCString { p -> String? in
            guard let r = realpath(p, nil) else { return nil }
            defer { free(r) }
            return String(cString: r)
        }
        return ((resolved ?? folder.standardizedFileURL.path) as NSString).appendingPathComponent(url.lastPathComponent)
    }

    private static func checkCollisions(_ items: [Item], _ targets: [String]) throws {
        var seen: [String: String] = [:]
        for (item, path) in zip(items, targets) {
            if let other = seen[path] {
                throw BlazeError(.invalidInput, "\(other) and \(item.origin) would both be written to \(path); nothing was written")
            }
            seen[path] = item.origin
        }
    }

    /// Throws unless `path` is absent or a regular file, and its folder exists.
    private static func checkReplaceable(_ path: String, origin: String) throws {
        var st = stat()
        if lstat(path, &st) == 0 {
            let type = st.st_mode & S_IFMT
            guard type == S_IFREG else {
                throw BlazeError(.invalidInput, "refusing to replace \(path) (\(fileTypeName(type))) with \(origin): only regular files are replaced; nothing was written")
            }
        } else if errno != ENOENT {
            throw failure("cannot write \(origin) to \(path)")
        }
        let folder = (path as NSString).deletingLastPathComponent
        var ds = stat()
        guard stat(folder, &ds) == 0, ds.st_mode & S_IFMT == S_IFDIR else {
            throw BlazeError(.io, "cannot write \(origin) to \(path): the folder \(folder) does not exist")
        }
    }

    static func fileTypeName(_ type: mode_t) -> String {
        switch type {
        case S_IFDIR: return "a directory"
        case S_IFLNK: return "a symbolic link"
        case S_IFIFO: return "a FIFO"
        case S_IFCHR: return "a character device"
        case S_IFBLK: return "a block device"
        case S_IFSOCK: return "a socket"
        default: return "not a regular file"
        }
    }

    private static func temporaryName(nextTo path: String, kind: String) -> String {
        let folder = (path as NSString).deletingLastPathComponent
        let name = (path as NSString).lastPathComponent
        return folder + "/." + name + ".\(kind)-\(getpid())-\(UInt64.random(in: 0...UInt64.max))"
    }

    /// Writes `bytes` to a new temporary file in `path`'s folder, flushed to disk; returns its path.
    private static func writeTemporary(_ bytes: [UInt8], nextTo path: String) throws -> String {
        let temp = temporaryName(nextTo: path, kind: "tmp")
        let fd = open(temp, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o644)
        guard fd >= 0 else { throw failure("cannot create temporary file \(temp)") }
        var ok = false
        defer { if !ok { unlink(temp) } }
        do {
            defer { close(fd) }
            if let code = bytes.withUnsafeBytes({ FileDescriptorIO.writeAll(fd, $0) }) {
                errno = code
                throw failure("cannot write \(temp)")
            }
            guard fsync(fd) == 0 else { throw failure("cannot flush \(temp)") }
        }
        ok = true
        return temp
    }

    /// An `.io` error with the current `errno` (call right after the failing system call).
    private static func failure(_ what: String) -> BlazeError {
        BlazeError(.io, "\(what): \(String(cString: strerror(errno)))")
    }
}
