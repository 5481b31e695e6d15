import IAPTime
import Testing

@testable import IAPKit

@Suite("Offers: what renewal information reports of a subscription's offers")
struct SubscriptionOfferStateTests {
    /// The definition `reportsSame` stands for: clear what is not reported, treat no state as a
    /// new one, and compare the whole value.
    static func copyAndCompare(_ a: SubscriptionOfferState?, _ b: SubscriptionOfferState?) -> Bool {
        func reported(_ s: SubscriptionOfferState?) -> SubscriptionOfferState {
            var s = s ?? SubscriptionOfferState()
            s.introductoryRedeemed = false
            if s.current?.type == .introductory { s.current = nil }
            return s
        }
        return reported(a) == reported(b)
    }

    static let product = ProductID("com.x.monthly")
    static func ref(_ type: OfferType, _ id: String? = nil) -> SubscriptionOfferState.OfferRef {
        .init(type: type, id: id.map { OfferID($0) }, product: product, billingPlan: .upFront)
    }

    /// A new state and one variant for each stored property, so a property `reportsSame` forgot
    /// would show as a pair the two definitions disagree on.
    static let states: [SubscriptionOfferState?] = {
        let base = SubscriptionOfferState()
        var variants: [SubscriptionOfferState?] = [nil, base]
        func with(_ change: (inout SubscriptionOfferState) -> Void) {
            var s = base
            change(&s)
            variants.append(s)
        }
        with { $0.current = ref(.introductory) }
        with { $0.current = ref(.promotional, "promo1") }
        with { $0.current = ref(.code, "code1") }
        with { $0.pending = ref(.promotional, "promo1") }
        with { $0.pending = ref(.introductory) }
        with { $0.introductoryRedeemed = true }
        with { $0.winBackRedemptions = [OfferID("wb1"): Timestamp(milliseconds: 1_000)] }
        with { $0.billingPlan = .monthly }
        with { $0.renewalBillingPlan = .monthly }
        with { $0.commitment = .init(start: Timestamp(milliseconds: 5_000), billingPeriod: 3) }
        with {
            $0.introductoryRedeemed = true
            $0.current = ref(.introductory)
        }
        return variants
    }()

    @Test("reportsSame agrees with copy-and-compare on every pair of states")
    func agreesWithDefinition() {
        var disagreements: [String] = []
        for (i, a) in Self.states.enumerated() {
            for (j, b) in Self.states.enumerated()
            where SubscriptionOfferState.reportsSame(a, b) != Self.copyAndCompare(a, b) {
                disagreements.append("\(i)-\(j)")
            }
        }
        #expect(disagreements == [])
    }

    @Test("an introductory offer in use, or used, reports nothing; every other change reports")
    func whatIsReported() {
        let reported = Self.states.map { SubscriptionOfferState.reportsSame(nil, $0) }
        // nil, new, current intro, current promo, current code, pending promo, pending intro,
        // intro redeemed, win-back, billing plan, renewal plan, commitment, intro used and current.
        #expect(reported == [true, true, true, false, false, false, false, true, false, false, false, false, true])
    }
}
