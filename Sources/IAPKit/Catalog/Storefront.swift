/// An App Store storefront: its ISO 3166-1 alpha-3 code (as StoreKit's `Storefront.countryCode`),
/// its currency and how that currency's prices are written.
///
/// `Storefront.all` is every storefront of the App Store: the 175 countries and regions App Store
/// Connect sells in (App Store Connect Help, Reference, "App Store storefronts",
/// developer.apple.com/help/app-store-connect/reference/app-store-storefronts), with the ISO
/// 3166-1 alpha-3 code Apple uses everywhere a storefront is named (StoreKit's
/// `Storefront.countryCode`, the App Store Server API's `storefront`, App Store Connect API's
/// `TerritoryCode`) and the currency App Store Connect prices that storefront in (App Store
/// Connect API `GET /v1/territories`, attribute `currency`). 134 storefronts share their currency
/// with others (109 pay in USD, 25 in EUR); 43 currencies in all.
public struct Storefront: Hashable, Sendable {
    public let code: String
    /// The ISO 3166-1 alpha-2 code of the same country or region (Apple Music's storefront ids,
    /// locale regions).
    public let alpha2: String
    /// The numeric storefront id App Store Server data carries as `storefrontId` (and
    /// `SKStorefront.identifier`); nil for the storefronts whose id iapctl does not know, whose
    /// signed transactions then leave `storefrontId` out.
    public let storefrontID: String?
    /// ISO 4217 code of the currency the storefront's prices are in.
    public let currency: String
    /// What a price is written with: the currency's symbol (`$`, `€`, `¥`) or its code and a
    /// space (`CHF `) where English text has no symbol of its own for it.
    public let symbol: String
    /// Digits after the decimal point: ISO 4217's minor units (0 for JPY, KRW, CLP and VND).
    public let fractionDigits: Int
    /// The locale product text is shown in when the store does not set one.
    public let defaultLocale: String
    /// The storefront's English name, as App Store Connect lists it.
    public let name: String

    init(_ code: String, _ alpha2: String, _ storefrontID: String?, _ currency: String, _ locale: String, _ name: String) {
        let money = Storefront.currencies[currency]
        precondition(money != nil, "currency \(currency) of storefront \(code) is missing from Storefront.currencies")
        self.code = code
        self.alpha2 = alpha2
        self.storefrontID = storefrontID
        self.currency = currency
        self.symbol = money?.symbol ?? currency + " "
        self.fractionDigits = money?.fractionDigits ?? 2
        self.defaultLocale = locale
        self.name = name
    }

    /// How each App Store currency is written: its symbol (or code) and ISO 4217 minor units.
    /// CNY is written `¥` as on the App Store in China; JPY, KRW, CLP and VND have no decimals.
    static let currencies: [String: (symbol: String, fractionDigits: Int)] = [
        "AED": ("AED ", 2), "AUD": ("A$", 2), "BRL": ("R$", 2), "CAD": ("CA$", 2), "CHF": ("CHF ", 2),
        "CLP": ("CLP ", 0), "CNY": ("¥", 2), "COP": ("COP ", 2), "CZK": ("CZK ", 2), "DKK": ("DKK ", 2),
        "EGP": ("EGP ", 2), "EUR": ("€", 2), "GBP": ("£", 2), "HKD": ("HK$", 2), "HUF": ("HUF ", 2),
        "IDR": ("IDR ", 2), "ILS": ("₪", 2), "INR": ("₹", 2), "JPY": ("¥", 0), "KRW": ("₩", 0),
        "KZT": ("KZT ", 2), "MXN": ("MX$", 2), "MYR": ("MYR ", 2), "NGN": ("NGN ", 2), "NOK": ("NOK ", 2),
        "NZD": ("NZ$", 2), "PEN": ("PEN ", 2), "PHP": ("₱", 2), "PKR": ("PKR ", 2), "PLN": ("PLN ", 2),
        "QAR": ("QAR ", 2), "RON": ("RON ", 2), "RUB": ("RUB ", 2), "SAR": ("SAR ", 2), "SEK": ("SEK ", 2),
        "SGD": ("SGD ", 2), "THB": ("THB ", 2), "TRY": ("TRY ", 2), "TWD": ("NT$", 2), "TZS": ("TZS ", 2),
        "USD": ("$", 2), "VND": ("₫", 0), "ZAR": ("ZAR ", 2),
    ]

    /// The storefronts iapctl knows, in alphabetical order of their codes: every App Store
    /// storefront. A catalog may price products in any of them.
    public static let all: [Storefront] = [
        Storefront("AFG", "AF", nil, "USD", "fa_AF", "Afghanistan"),
        Storefront("AGO", "AO", "143564", "USD", "pt_AO", "Angola"),
        Storefront("AIA", "AI", "143538", "USD", "en_AI", "Anguilla"),
        Storefront("ALB", "AL", nil, "USD", "sq_AL", "Albania"),
        Storefront("ARE", "AE", "143481", "AED", "ar_AE", "United Arab Emirates"),
        Storefront("ARG", "AR", "143505", "USD", "es_AR", "Argentina"),
        Storefront("ARM", "AM", "143524", "USD", "hy_AM", "Armenia"),
        Storefront("ATG", "AG", nil, "USD", "en_AG", "Antigua and Barbuda"),
        Storefront("AUS", "AU", "143460", "AUD", "en_AU", "Australia"),
        Storefront("AUT", "AT", "143445", "EUR", "de_AT", "Austria"),
        Storefront("AZE", "AZ", "143568", "USD", "az_AZ", "Azerbaijan"),
        Storefront("BEL", "BE", "143446", "EUR", "nl_BE", "Belgium"),
        Storefront("BEN", "BJ", nil, "USD", "fr_BJ", "Benin"),
        Storefront("BFA", "BF", nil, "USD", "fr_BF", "Burkina Faso"),
        Storefront("BGR", "BG", "143526", "EUR", "bg_BG", "Bulgaria"),
        Storefront("BHR", "BH", "143559", "USD", "ar_BH", "Bahrain"),
        Storefront("BHS", "BS", nil, "USD", "en_BS", "Bahamas"),
        Storefront("BIH", "BA", nil, "EUR", "bs_BA", "Bosnia and Herzegovina"),
        Storefront("BLR", "BY", "143565", "USD", "be_BY", "Belarus"),
        Storefront("BLZ", "BZ", "143555", "USD", "en_BZ", "Belize"),
        Storefront("BMU", "BM", "143542", "USD", "en_BM", "Bermuda"),
        Storefront("BOL", "BO", "143556", "USD", "es_BO", "Bolivia"),
        Storefront("BRA", "BR", "143503", "BRL", "pt_BR", "Brazil"),
        Storefront("BRB", "BB", "143541", "USD", "en_BB", "Barbados"),
        Storefront("BRN", "BN", "143560", "USD", "ms_BN", "Brunei"),
        Storefront("BTN", "BT", nil, "USD", "dz_BT", "Bhutan"),
        Storefront("BWA", "BW", "143525", "USD", "en_BW", "Botswana"),
        Storefront("CAN", "CA", "143455", "CAD", "en_CA", "Canada"),
        Storefront("CHE", "CH", "143459", "CHF", "de_CH", "Switzerland"),
        Storefront("CHL", "CL", "143483", "CLP", "es_CL", "Chile"),
        Storefront("CHN", "CN", "143465", "CNY", "zh_CN", "China mainland"),
        Storefront("CIV", "CI", nil, "USD", "fr_CI", "Côte d'Ivoire"),
        Storefront("CMR", "CM", nil, "USD", "fr_CM", "Cameroon"),
        Storefront("COD", "CD", nil, "USD", "fr_CD", "Democratic Republic of the Congo"),
        Storefront("COG", "CG", nil, "USD", "fr_CG", "Republic of the Congo"),
        Storefront("COL", "CO", "143501", "COP", "es_CO", "Colombia"),
        Storefront("CPV", "CV", nil, "USD", "pt_CV", "Cape Verde"),
        Storefront("CRI", "CR", "143495", "USD", "es_CR", "Costa Rica"),
        Storefront("CYM", "KY", "143544", "USD", "en_KY", "Cayman Islands"),
        Storefront("CYP", "CY", "143557", "EUR", "el_CY", "Cyprus"),
        Storefront("CZE", "CZ", "143489", "CZK", "cs_CZ", "Czechia"),
        Storefront("DEU", "DE", "143443", "EUR", "de_DE", "Germany"),
        Storefront("DMA", "DM", "143545", "USD", "en_DM", "Dominica"),
        Storefront("DNK", "DK", "143458", "DKK", "da_DK", "Denmark"),
        Storefront("DOM", "DO", nil, "USD", "es_DO", "Dominican Republic"),
        Storefront("DZA", "DZ", "143563", "USD", "ar_DZ", "Algeria"),
        Storefront("ECU", "EC", "143509", "USD", "es_EC", "Ecuador"),
        Storefront("EGY", "EG", "143516", "EGP", "ar_EG", "Egypt"),
        Storefront("ESP", "ES", "143454", "EUR", "es_ES", "Spain"),
        Storefront("EST", "EE", "143518", "EUR", "et_EE", "Estonia"),
        Storefront("FIN", "FI", "143447", "EUR", "fi_FI", "Finland"),
        Storefront("FJI", "FJ", nil, "USD", "en_FJ", "Fiji"),
        Storefront("FRA", "FR", "143442", "EUR", "fr_FR", "France"),
        Storefront("FSM", "FM", nil, "USD", "en_FM", "Micronesia"),
        Storefront("GAB", "GA", nil, "USD", "fr_GA", "Gabon"),
        Storefront("GBR", "GB", "143444", "GBP", "en_GB", "United Kingdom"),
        Storefront("GEO", "GE", nil, "USD", "ka_GE", "Georgia"),
        Storefront("GHA", "GH", "143573", "USD", "en_GH", "Ghana"),
        Storefront("GMB", "GM", nil, "USD", "en_GM", "Gambia"),
        Storefront("GNB", "GW", nil, "USD", "pt_GW", "Guinea-Bissau"),
        Storefront("GRC", "GR", "143448", "EUR", "el_GR", "Greece"),
        Storefront("GRD", "GD", "143546", "USD", "en_GD", "Grenada"),
        Storefront("GTM", "GT", "143504", "USD", "es_GT", "Guatemala"),
        Storefront("GUY", "GY", "143553", "USD", "en_GY", "Guyana"),
        Storefront("HKG", "HK", "143463", "HKD", "zh_HK", "Hong Kong"),
        Storefront("HND", "HN", "143510", "USD", "es_HN", "Honduras"),
        Storefront("HRV", "HR", "143494", "EUR", "hr_HR", "Croatia"),
        Storefront("HUN", "HU", "143482", "HUF", "hu_HU", "Hungary"),
        Storefront("IDN", "ID", "143476", "IDR", "id_ID", "Indonesia"),
        Storefront("IND", "IN", "143467", "INR", "en_IN", "India"),
        Storefront("IRL", "IE", "143449", "EUR", "en_IE", "Ireland"),
        Storefront("IRQ", "IQ", nil, "USD", "ar_IQ", "Iraq"),
        Storefront("ISL", "IS", "143558", "USD", "is_IS", "Iceland"),
        Storefront("ISR", "IL", "143491", "ILS", "he_IL", "Israel"),
        Storefront("ITA", "IT", "143450", "EUR", "it_IT", "Italy"),
        Storefront("JAM", "JM", "143511", "USD", "en_JM", "Jamaica"),
        Storefront("JOR", "JO", "143528", "USD", "ar_JO", "Jordan"),
        Storefront("JPN", "JP", "143462", "JPY", "ja_JP", "Japan"),
        Storefront("KAZ", "KZ", nil, "KZT", "kk_KZ", "Kazakhstan"),
        Storefront("KEN", "KE", "143529", "USD", "en_KE", "Kenya"),
        Storefront("KGZ", "KG", nil, "USD", "ky_KG", "Kyrgyzstan"),
        Storefront("KHM", "KH", nil, "USD", "km_KH", "Cambodia"),
        Storefront("KNA", "KN", nil, "USD", "en_KN", "Saint Kitts and Nevis"),
        Storefront("KOR", "KR", "143466", "KRW", "ko_KR", "Republic of Korea"),
        Storefront("KWT", "KW", "143493", "USD", "ar_KW", "Kuwait"),
        Storefront("LAO", "LA", nil, "USD", "lo_LA", "Laos"),
        Storefront("LBN", "LB", "143497", "USD", "ar_LB", "Lebanon"),
        Storefront("LBR", "LR", nil, "USD", "en_LR", "Liberia"),
        Storefront("LBY", "LY", nil, "USD", "ar_LY", "Libya"),
        Storefront("LCA", "LC", nil, "USD", "en_LC", "Saint Lucia"),
        Storefront("LKA", "LK", "143486", "USD", "si_LK", "Sri Lanka"),
        Storefront("LTU", "LT", "143520", "EUR", "lt_LT", "Lithuania"),
        Storefront("LUX", "LU", "143451", "EUR", "fr_LU", "Luxembourg"),
        Storefront("LVA", "LV", "143519", "EUR", "lv_LV", "Latvia"),
        Storefront("MAC", "MO", "143515", "USD", "zh_MO", "Macao"),
        Storefront("MAR", "MA", nil, "USD", "ar_MA", "Morocco"),
        Storefront("MDA", "MD", nil, "USD", "ro_MD", "Moldova"),
        Storefront("MDG", "MG", "143531", "USD", "fr_MG", "Madagascar"),
        Storefront("MDV", "MV", nil, "USD", "dv_MV", "Maldives"),
        Storefront("MEX", "MX", "143468", "MXN", "es_MX", "Mexico"),
        Storefront("MKD", "MK", "143530", "USD", "mk_MK", "North Macedonia"),
        Storefront("MLI", "ML", "143532", "USD", "fr_ML", "Mali"),
        Storefront("MLT", "MT", "143521", "EUR", "mt_MT", "Malta"),
        Storefront("MMR", "MM", nil, "USD", "my_MM", "Myanmar"),
        Storefront("MNE", "ME", nil, "EUR", "sr_ME", "Montenegro"),
        Storefront("MNG", "MN", nil, "USD", "mn_MN", "Mongolia"),
        Storefront("MOZ", "MZ", nil, "USD", "pt_MZ", "Mozambique"),
        Storefront("MRT", "MR", nil, "USD", "ar_MR", "Mauritania"),
        Storefront("MSR", "MS", "143547", "USD", "en_MS", "Montserrat"),
        Storefront("MUS", "MU", "143533", "USD", "en_MU", "Mauritius"),
        Storefront("MWI", "MW", nil, "USD", "en_MW", "Malawi"),
        Storefront("MYS", "MY", "143473", "MYR", "ms_MY", "Malaysia"),
        Storefront("NAM", "NA", nil, "USD", "en_NA", "Namibia"),
        Storefront("NER", "NE", "143534", "USD", "fr_NE", "Niger"),
        Storefront("NGA", "NG", "143561", "NGN", "en_NG", "Nigeria"),
        Storefront("NIC", "NI", "143512", "USD", "es_NI", "Nicaragua"),
        Storefront("NLD", "NL", "143452", "EUR", "nl_NL", "Netherlands"),
        Storefront("NOR", "NO", "143457", "NOK", "nb_NO", "Norway"),
        Storefront("NPL", "NP", "143484", "USD", "ne_NP", "Nepal"),
        Storefront("NRU", "NR", nil, "USD", "en_NR", "Nauru"),
        Storefront("NZL", "NZ", "143461", "NZD", "en_NZ", "New Zealand"),
        Storefront("OMN", "OM", "143562", "USD", "ar_OM", "Oman"),
        Storefront("PAK", "PK", "143477", "PKR", "ur_PK", "Pakistan"),
        Storefront("PAN", "PA", "143485", "USD", "es_PA", "Panama"),
        Storefront("PER", "PE", "143507", "PEN", "es_PE", "Peru"),
        Storefront("PHL", "PH", "143474", "PHP", "en_PH", "Philippines"),
        Storefront("PLW", "PW", nil, "USD", "en_PW", "Palau"),
        Storefront("PNG", "PG", nil, "USD", "en_PG", "Papua New Guinea"),
        Storefront("POL", "PL", "143478", "PLN", "pl_PL", "Poland"),
        Storefront("PRT", "PT", "143453", "EUR", "pt_PT", "Portugal"),
        Storefront("PRY", "PY", "143513", "USD", "es_PY", "Paraguay"),
        Storefront("QAT", "QA", "143498", "QAR", "ar_QA", "Qatar"),
        Storefront("ROU", "RO", "143487", "RON", "ro_RO", "Romania"),
        Storefront("RUS", "RU", "143469", "RUB", "ru_RU", "Russia"),
        Storefront("RWA", "RW", nil, "USD", "rw_RW", "Rwanda"),
        Storefront("SAU", "SA", "143479", "SAR", "ar_SA", "Saudi Arabia"),
        Storefront("SEN", "SN", "143535", "USD", "fr_SN", "Senegal"),
        Storefront("SGP", "SG", "143464", "SGD", "en_SG", "Singapore"),
        Storefront("SLB", "SB", nil, "USD", "en_SB", "Solomon Islands"),
        Storefront("SLE", "SL", nil, "USD", "en_SL", "Sierra Leone"),
        Storefront("SLV", "SV", "143506", "USD", "es_SV", "El Salvador"),
        Storefront("SRB", "RS", nil, "EUR", "sr_RS", "Serbia"),
        Storefront("STP", "ST", nil, "USD", "pt_ST", "São Tomé and Príncipe"),
        Storefront("SUR", "SR", "143554", "USD", "nl_SR", "Suriname"),
        Storefront("SVK", "SK", "143496", "EUR", "sk_SK", "Slovakia"),
        Storefront("SVN", "SI", "143499", "EUR", "sl_SI", "Slovenia"),
        Storefront("SWE", "SE", "143456", "SEK", "sv_SE", "Sweden"),
        Storefront("SWZ", "SZ", nil, "USD", "en_SZ", "Eswatini"),
        Storefront("SYC", "SC", nil, "USD", "en_SC", "Seychelles"),
        Storefront("TCA", "TC", nil, "USD", "en_TC", "Turks and Caicos Islands"),
        Storefront("TCD", "TD", nil, "USD", "fr_TD", "Chad"),
        Storefront("THA", "TH", "143475", "THB", "th_TH", "Thailand"),
        Storefront("TJK", "TJ", nil, "USD", "tg_TJ", "Tajikistan"),
        Storefront("TKM", "TM", nil, "USD", "tk_TM", "Turkmenistan"),
        Storefront("TON", "TO", nil, "USD", "to_TO", "Tonga"),
        Storefront("TTO", "TT", nil, "USD", "en_TT", "Trinidad and Tobago"),
        Storefront("TUN", "TN", "143536", "USD", "ar_TN", "Tunisia"),
        Storefront("TUR", "TR", "143480", "TRY", "tr_TR", "Türkiye"),
        Storefront("TWN", "TW", "143470", "TWD", "zh_TW", "Taiwan"),
        Storefront("TZA", "TZ", "143572", "TZS", "sw_TZ", "Tanzania"),
        Storefront("UGA", "UG", "143537", "USD", "en_UG", "Uganda"),
        Storefront("UKR", "UA", "143492", "USD", "uk_UA", "Ukraine"),
        Storefront("URY", "UY", "143514", "USD", "es_UY", "Uruguay"),
        Storefront("USA", "US", "143441", "USD", "en_US", "United States"),
        Storefront("UZB", "UZ", "143566", "USD", "uz_UZ", "Uzbekistan"),
        Storefront("VCT", "VC", nil, "USD", "en_VC", "Saint Vincent and the Grenadines"),
        Storefront("VEN", "VE", "143502", "USD", "es_VE", "Venezuela"),
        Storefront("VGB", "VG", "143543", "USD", "en_VG", "British Virgin Islands"),
        Storefront("VNM", "VN", "143471", "VND", "vi_VN", "Vietnam"),
        Storefront("VUT", "VU", nil, "USD", "bi_VU", "Vanuatu"),
        Storefront("XKS", "XK", nil, "EUR", "sq_XK", "Kosovo"),
        Storefront("YEM", "YE", "143571", "USD", "ar_YE", "Yemen"),
        Storefront("ZAF", "ZA", "143472", "ZAR", "en_ZA", "South Africa"),
        Storefront("ZMB", "ZM", nil, "USD", "en_ZM", "Zambia"),
        Storefront("ZWE", "ZW", nil, "USD", "en_ZW", "Zimbabwe"),
    ]

    /// The storefront with this code (case-insensitive), or nil: a binary search of `all`, which
    /// is sorted by code (`StorefrontTableTests` holds it to that). No dictionary is built: every
    /// purchase looks its storefront up, and a one-process `buy` would otherwise spend more on
    /// building that index (and on the runtime's first lookups for its types) than on the search.
    public static func named(_ code: String) -> Storefront? {
        // Codes are stored upper-case (every transaction's is): uppercasing one costs more than
        // the search, so only a code with a lower-case or non-ASCII letter is uppercased.
        let upper = code.utf8.contains { ($0 >= 0x61 && $0 <= 0x7A) || $0 >= 0x80 } ? code.uppercased() : code
        var low = 0
        var high = all.count
        while low < high {
            let mid = (low + high) / 2
            if all[mid].code < upper { low = mid + 1 } else { high = mid }
        }
        return low < all.count && all[low].code == upper ? all[low] : nil
    }

    /// The United States storefront, Xcode's and iapctl's default.
    public static let usa = named("USA")!

    /// The fix for an unknown storefront code: the alpha-3 code of an alpha-2 one (`US` is
    /// `USA`), else the codes one letter away, and where the full list is (175 codes are too
    /// many for one line).
    public static func unknownCodeHint(_ code: String) -> String {
        let upper = code.uppercased()
        var near = all.filter { $0.alpha2 == upper }.map(\.code)
        if near.isEmpty {
            near = Array(all.map(\.code).filter { Suggestions.distance(upper, $0) == 1 }.prefix(3))
        }
        let guess = near.isEmpty ? "" : "did you mean \(near.map { "'\($0)'" }.joined(separator: " or "))? "
        return guess
            + "use an App Store storefront's ISO 3166-1 alpha-3 code, such as USA, CHN or JPN (all 175: docs/catalog.md)"
    }

    /// The price as a shopper sees it: symbol, grouped digits, the currency's decimals
    /// (`$0.99`, `¥6.00` in CHN, `¥120` in JPN, `$1,299.99`, `CHF 9.90`). A price with more
    /// decimals than the currency has is rounded as StoreKit's formatter does (half to even).
    public func localizedPrice(_ price: Price) -> String {
        let text = price.rounded(toFractionDigits: fractionDigits).decimalString(fractionDigits: fractionDigits)
        // The text is ASCII (digits, a sign, a point): read as bytes, with no split into
        // substrings and no walk over Characters. Strings and characters are appended only:
        // appending a Substring goes through the standard library's unspecialized generic
        // path, whose first use costs a `buy` more than the formatting.
        let utf8 = Array(text.utf8)
        let point = utf8.firstIndex(of: UInt8(ascii: ".")) ?? utf8.count
        var result = symbol
        for i in 0..<point {
            if i > 0 && (point - i) % 3 == 0 { result.append(",") }
            result.append(Character(Unicode.Scalar(utf8[i])))
        }
        if point < utf8.count - 1 {
            result.append(".")
            result.append(String(decoding: utf8[(point + 1)...], as: UTF8.self))
        }
        return result
    }
}
