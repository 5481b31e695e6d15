/// Reads a catalog in whichever format it is written: the project's JSON or an Xcode
/// `.storekit` file (chosen by extension, else by content).
public enum CatalogFormats {
    public static func read(_ bytes: [UInt8], file: String) throws(CatalogError) -> Catalog {
        try CatalogLoader.load(bytes: bytes, file: file)
    }
}
