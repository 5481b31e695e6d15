import IAPKit

/// Progress of downloads as people see it: on a terminal, one bar per download redrawn in place;
/// piped, one plain line per step (so logs and tests read it line by line).
struct ProgressDisplay {
    let console: Console
    /// Width of the bar, in characters.
    static let barWidth = 30

    /// Shows one step. `detail` follows the bar or the line (bytes, say).
    func step(_ label: String, progress: Double, detail: String) {
        if console.isTerminal {
            let filled = min(ProgressDisplay.barWidth, Int((progress * Double(ProgressDisplay.barWidth)).rounded(.down)))
            let bar = String(repeating: "#", count: filled) + String(repeating: "-", count: ProgressDisplay.barWidth - filled)
            let percent = min(100, Int((progress * 100).rounded(.down)))
            console.write(
                "\r\u{1B}[K\(label)  [\(bar)] \(String(repeating: " ", count: 3 - String(percent).count))\(percent)%  \(detail)")
        } else {
            console.line("\(label)  progress \(EventText.progress(progress))  \(detail)")
        }
    }

    /// Ends a download's display with its outcome.
    func end(_ label: String, _ outcome: String) {
        if console.isTerminal {
            console.write("\n")
        }
        console.line("\(label)  \(outcome)")
    }
}
