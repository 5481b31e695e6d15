/// Reads a catalog in whichever format it is written.
public enum CatalogFormats {
    public static func read(_ bytes: [UInt8], file: String) throws(CatalogError) -> Catalog {
        try CatalogJSONFormat.read(bytes, file: file)
    }
}
