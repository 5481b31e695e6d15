import IAPKit

/// What runs after a command delivered transactions: the self-hosted content downloader.
enum DeliveryFollowUp {
    /// Runs the downloader for the delivered (purchased or restored) transactions among
    /// `transactions`; a content download that fails turns a success into exit 1 ("download
    /// failed", SPEC section 5).
    static func after(_ code: ExitCode, delivered transactions: [Transaction], _ c: CommandContext) throws -> ExitCode {
        let ids = transactions.filter(\.isDelivered).map(\.id)
        guard !ids.isEmpty else { return code }
        // auto-finish: RMStore's whole pipeline instead (it runs the content downloader itself).
        if c.lastAutoFinish { return try AutoFinish.run(code, ids: ids, c) }
        // Only self-hosted products have content to deliver; skip reopening the store otherwise.
        if let catalog = c.lastCatalog,
            !transactions.contains(where: { catalog[$0.productID]?.selfHosted == true })
        {
            return code
        }
        let succeeded = try SelfHostedDownloader.deliver(c, only: ids)
        return succeeded || code != .success ? code : .declined
    }

}
