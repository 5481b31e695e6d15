import Foundation

/// A scratch directory removed when the value goes away.
final class TemporaryDirectory {
    let path: String

    init(_ name: String = "iapkit-test") {
        let template = NSTemporaryDirectory() + "/\(name)-XXXXXX"
        var bytes = Array(template.utf8CString)
        path = bytes.withUnsafeMutableBufferPointer { String(cString: mkdtemp($0.baseAddress!)!) }
    }

    deinit { try? FileManager.default.removeItem(atPath: path) }

    func read(_ relative: String) -> [UInt8] {
        [UInt8](FileManager.default.contents(atPath: path + "/" + relative) ?? Data())
    }

    func write(_ relative: String, _ bytes: [UInt8]) {
        _ = FileManager.default.createFile(atPath: path + "/" + relative, contents: Data(bytes))
    }
}
