import BlazeCLISupport
import BlazeEngine
import Foundation

/// Progress on standard error (docs/cli.md): shown when stderr is a terminal or with
/// `--progress`, never with `--no-progress`, never on standard output.
///
/// On a terminal one line is redrawn in place (at most 10 times a second); otherwise (`--progress`
/// into a file or pipe) a full line is written at most once a second, so logs stay readable.
/// Used from one thread (the one that delivers results).
final class ProgressReporter {
    enum Unit { case images, frames }

    let isEnabled: Bool
    private let unit: Unit
    private let isTerminal: Bool
    private let started = Date()
    private var lastDrawn = Date.distantPast
    private var lineShown = false
    private(set) var done = 0
    var total: Int?
    /// Seconds of media, when the container knows its duration.
    var duration: Double?

    init(arguments: Arguments, unit: Unit) {
        let terminal = isatty(STDERR_FILENO) == 1
        isEnabled = !arguments.has("--no-progress") && (arguments.has("--progress") || terminal)
        isTerminal = terminal
        self.unit = unit
    }

    /// One more image or frame; `position` is the frame's presentation time in seconds.
    func step(position: Double? = nil) {
        done += 1
        guard isEnabled else { return }
        let now = Date()
        guard now.timeIntervalSince(lastDrawn) >= (isTerminal ? 0.1 : 1) else { return }
        lastDrawn = now
        draw(status(position: position, now: now))
    }

    /// Writes the final figures (and ends the redrawn line).
    func finish(position: Double? = nil) {
        guard isEnabled else { return }
        draw(status(position: position, now: Date(), final: true))
        if isTerminal { write("\n") }
        lineShown = false
    }

    /// Clears the redrawn line before an error message is printed under it.
    func prepareForMessage() {
        guard isEnabled, isTerminal, lineShown else { return }
        write("\r\u{1B}[K")
        lineShown = false
    }

    /// The status text: `120/240 images · 85.3 images/s · elapsed 0:01 · ETA 0:01` or
    /// `300 frames · 41.0 frames/s · 0:10/0:30 · elapsed 0:07`.
    func status(position: Double?, now: Date, final: Bool = false) -> String {
        let elapsed = now.timeIntervalSince(started)
        let rate = elapsed > 0 ? Double(done) / elapsed : 0
        let name = unit == .images ? "images" : "frames"
        var parts = [total.map { "\(done)/\($0) \(name)" } ?? "\(done) \(name)", String(format: "%.1f \(name)/s", rate)]
        if let position {
            parts.append(duration.map { "\(Self.clock(position))/\(Self.clock($0))" } ?? Self.clock(position))
        }
        parts.append("elapsed \(Self.clock(elapsed))")
        if !final, let eta = eta(elapsed: elapsed, rate: rate, position: position) { parts.append("ETA \(Self.clock(eta))") }
        return "blaze: " + parts.joined(separator: " · ")
    }

    /// Seconds left, from the images left or the media time left, at the rate so far.
    private func eta(elapsed: Double, rate: Double, position: Double?) -> Double? {
        if let total, rate > 0, done < total { return Double(total - done) / rate }
        if let duration, let position, position > 0, position < duration { return elapsed * (duration - position) / position }
        return nil
    }

    /// `m:ss` or `h:mm:ss`.
    static func clock(_ seconds: Double) -> String {
        let s = Int(max(0, seconds).rounded())
        return s >= 3600 ? String(format: "%d:%02d:%02d", s / 3600, s / 60 % 60, s % 60) : String(format: "%d:%02d", s / 60, s % 60)
    }

    private func draw(_ text: String) {
        if isTerminal {
            write("\r" + text + "\u{1B}[K")
            lineShown = true
        } else {
            write(text + "\n")
        }
    }

    private func write(_ text: String) {
        _ = Array(text.utf8).withUnsafeBytes { FileDescriptorIO.writeAll(STDERR_FILENO, $0) }
    }
}
