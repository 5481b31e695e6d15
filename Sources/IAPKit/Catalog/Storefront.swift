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

    init(_ row: Row) {
        let money = Storefront.money(of: row.currency)
        precondition(money != nil, "currency \(row.currency) of storefront \(row.code) is missing from Storefront.currencies")
        self.code = row.code
        self.alpha2 = row.alpha2
        self.storefrontID = row.storefrontID
        self.currency = row.currency
        self.symbol = money?.symbol ?? row.currency + " "
        self.fractionDigits = money?.fractionDigits ?? 2
        self.defaultLocale = row.locale
        self.name = row.name
    }

    /// One storefront as `rows` writes it.
    typealias Row = (code: String, alpha2: String, storefrontID: String?, currency: String, locale: String, name: String)

    /// How each App Store currency is written: its symbol (or code) and ISO 4217 minor units.
    /// CNY is written `¥` as on the App Store in China; JPY, KRW, CLP and VND have no decimals.
    /// Sorted by code and searched (`money(of:)`): a dictionary of them would be built, and every
    /// key hashed, by each one-process command that names a storefront.
    static let currencies: [(code: String, symbol: String, fractionDigits: Int)] = [
        ("AED", "AED ", 2), ("AUD", "A$", 2), ("BRL", "R$", 2), ("CAD", "CA$", 2), ("CHF", "CHF ", 2),
        ("CLP", "CLP ", 0), ("CNY", "¥", 2), ("COP", "COP ", 2), ("CZK", "CZK ", 2), ("DKK", "DKK ", 2),
        ("EGP", "EGP ", 2), ("EUR", "€", 2), ("GBP", "£", 2), ("HKD", "HK$", 2), ("HUF", "HUF ", 2),
        ("IDR", "IDR ", 2), ("ILS", "₪", 2), ("INR", "₹", 2), ("JPY", "¥", 0), ("KRW", "₩", 0),
        ("KZT", "KZT ", 2), ("MXN", "MX$", 2), ("MYR", "MYR ", 2), ("NGN", "NGN ", 2), ("NOK", "NOK ", 2),
        ("NZD", "NZ$", 2), ("PEN", "PEN ", 2), ("PHP", "₱", 2), ("PKR", "PKR ", 2), ("PLN", "PLN ", 2),
        ("QAR", "QAR ", 2), ("RON", "RON ", 2), ("RUB", "RUB ", 2), ("SAR", "SAR ", 2), ("SEK", "SEK ", 2),
        ("SGD", "SGD ", 2), ("THB", "THB ", 2), ("TRY", "TRY ", 2), ("TWD", "NT$", 2), ("TZS", "TZS ", 2),
        ("USD", "$", 2), ("VND", "₫", 0), ("ZAR", "ZAR ", 2),
    ]

    /// The currency `code`'s symbol and minor units, or nil when it is not an App Store currency.
    static func money(of code: String) -> (symbol: String, fractionDigits: Int)? {
        currencies.withUnsafeBufferPointer { table in
            var low = 0
            var high = table.count
            while low < high {
                let mid = (low + high) / 2
                if table[mid].code < code { low = mid + 1 } else { high = mid }
            }
            guard low < table.count, table[low].code == code else { return nil }
            return (table[low].symbol, table[low].fractionDigits)
        }
    }

    /// The storefronts iapctl knows, in alphabetical order of their codes: every App Store
    /// storefront. A catalog may price products in any of them.
    public static let all: [Storefront] = rows.map(Storefront.init)

    /// `all` as rows of text, sorted by code: `named` searches these and builds only the
    /// storefront it finds, where building `all` (175 storefronts, each with its currency looked
    /// up) would cost a one-process `buy` more than its purchase.
    static let rows: [Row] = [
        ("AFG", "AF", nil, "USD", "fa_AF", "Afghanistan"),
        ("AGO", "AO", "143564", "USD", "pt_AO", "Angola"),
        ("AIA", "AI", "143538", "USD", "en_AI", "Anguilla"),
        ("ALB", "AL", nil, "USD", "sq_AL", "Albania"),
        ("ARE", "AE", "143481", "AED", "ar_AE", "United Arab Emirates"),
        ("ARG", "AR", "143505", "USD", "es_AR", "Argentina"),
        ("ARM", "AM", "143524", "USD", "hy_AM", "Armenia"),
        ("ATG", "AG", nil, "USD", "en_AG", "Antigua and Barbuda"),
        ("AUS", "AU", "143460", "AUD", "en_AU", "Australia"),
        ("AUT", "AT", "143445", "EUR", "de_AT", "Austria"),
        ("AZE", "AZ", "143568", "USD", "az_AZ", "Azerbaijan"),
        ("BEL", "BE", "143446", "EUR", "nl_BE", "Belgium"),
        ("BEN", "BJ", nil, "USD", "fr_BJ", "Benin"),
        ("BFA", "BF", nil, "USD", "fr_BF", "Burkina Faso"),
        ("BGR", "BG", "143526", "EUR", "bg_BG", "Bulgaria"),
        ("BHR", "BH", "143559", "USD", "ar_BH", "Bahrain"),
        ("BHS", "BS", nil, "USD", "en_BS", "Bahamas"),
        ("BIH", "BA", nil, "EUR", "bs_BA", "Bosnia and Herzegovina"),
        ("BLR", "BY", "143565", "USD", "be_BY", "Belarus"),
        ("BLZ", "BZ", "143555", "USD", "en_BZ", "Belize"),
        ("BMU", "BM", "143542", "USD", "en_BM", "Bermuda"),
        ("BOL", "BO", "143556", "USD", "es_BO", "Bolivia"),
        ("BRA", "BR", "143503", "BRL", "pt_BR", "Brazil"),
        ("BRB", "BB", "143541", "USD", "en_BB", "Barbados"),
        ("BRN", "BN", "143560", "USD", "ms_BN", "Brunei"),
        ("BTN", "BT", nil, "USD", "dz_BT", "Bhutan"),
        ("BWA", "BW", "143525", "USD", "en_BW", "Botswana"),
        ("CAN", "CA", "143455", "CAD", "en_CA", "Canada"),
        ("CHE", "CH", "143459", "CHF", "de_CH", "Switzerland"),
        ("CHL", "CL", "143483", "CLP", "es_CL", "Chile"),
        ("CHN", "CN", "143465", "CNY", "zh_CN", "China mainland"),
        ("CIV", "CI", nil, "USD", "fr_CI", "Côte d'Ivoire"),
        ("CMR", "CM", nil, "USD", "fr_CM", "Cameroon"),
        ("COD", "CD", nil, "USD", "fr_CD", "Democratic Republic of the Congo"),
        ("COG", "CG", nil, "USD", "fr_CG", "Republic of the Congo"),
        ("COL", "CO", "143501", "COP", "es_CO", "Colombia"),
        ("CPV", "CV", nil, "USD", "pt_CV", "Cape Verde"),
        ("CRI", "CR", "143495", "USD", "es_CR", "Costa Rica"),
        ("CYM", "KY", "143544", "USD", "en_KY", "Cayman Islands"),
        ("CYP", "CY", "143557", "EUR", "el_CY", "Cyprus"),
        ("CZE", "CZ", "143489", "CZK", "cs_CZ", "Czechia"),
        ("DEU", "DE", "143443", "EUR", "de_DE", "Germany"),
        ("DMA", "DM", "143545", "USD", "en_DM", "Dominica"),
        ("DNK", "DK", "143458", "DKK", "da_DK", "Denmark"),
        ("DOM", "DO", nil, "USD", "es_DO", "Dominican Republic"),
        ("DZA", "DZ", "143563", "USD", "ar_DZ", "Algeria"),
        ("ECU", "EC", "143509", "USD", "es_EC", "Ecuador"),
        ("EGY", "EG", "143516", "EGP", "ar_EG", "Egypt"),
        ("ESP", "ES", "143454", "EUR", "es_ES", "Spain"),
        ("EST", "EE", "143518", "EUR", "et_EE", "Estonia"),
        ("FIN", "FI", "143447", "EUR", "fi_FI", "Finland"),
        ("FJI", "FJ", nil, "USD", "en_FJ", "Fiji"),
        ("FRA", "FR", "143442", "EUR", "fr_FR", "France"),
        ("FSM", "FM", nil, "USD", "en_FM", "Micronesia"),
        ("GAB", "GA", nil, "USD", "fr_GA", "Gabon"),
        ("GBR", "GB", "143444", "GBP", "en_GB", "United Kingdom"),
        ("GEO", "GE", nil, "USD", "ka_GE", "Georgia"),
        ("GHA", "GH", "143573", "USD", "en_GH", "Ghana"),
        ("GMB", "GM", nil, "USD", "en_GM", "Gambia"),
        ("GNB", "GW", nil, "USD", "pt_GW", "Guinea-Bissau"),
        ("GRC", "GR", "143448", "EUR", "el_GR", "Greece"),
        ("GRD", "GD", "143546", "USD", "en_GD", "Grenada"),
        ("GTM", "GT", "143504", "USD", "es_GT", "Guatemala"),
        ("GUY", "GY", "143553", "USD", "en_GY", "Guyana"),
        ("HKG", "HK", "143463", "HKD", "zh_HK", "Hong Kong"),
        ("HND", "HN", "143510", "USD", "es_HN", "Honduras"),
        ("HRV", "HR", "143494", "EUR", "hr_HR", "Croatia"),
        ("HUN", "HU", "143482", "HUF", "hu_HU", "Hungary"),
        ("IDN", "ID", "143476", "IDR", "id_ID", "Indonesia"),
        ("IND", "IN", "143467", "INR", "en_IN", "India"),
        ("IRL", "IE", "143449", "EUR", "en_IE", "Ireland"),
        ("IRQ", "IQ", nil, "USD", "ar_IQ", "Iraq"),
        ("ISL", "IS", "143558", "USD", "is_IS", "Iceland"),
        ("ISR", "IL", "143491", "ILS", "he_IL", "Israel"),
        ("ITA", "IT", "143450", "EUR", "it_IT", "Italy"),
        ("JAM", "JM", "143511", "USD", "en_JM", "Jamaica"),
        ("JOR", "JO", "143528", "USD", "ar_JO", "Jordan"),
        ("JPN", "JP", "143462", "JPY", "ja_JP", "Japan"),
        ("KAZ", "KZ", nil, "KZT", "kk_KZ", "Kazakhstan"),
        ("KEN", "KE", "143529", "USD", "en_KE", "Kenya"),
        ("KGZ", "KG", nil, "USD", "ky_KG", "Kyrgyzstan"),
        ("KHM", "KH", nil, "USD", "km_KH", "Cambodia"),
        ("KNA", "KN", nil, "USD", "en_KN", "Saint Kitts and Nevis"),
        ("KOR", "KR", "143466", "KRW", "ko_KR", "Republic of Korea"),
        ("KWT", "KW", "143493", "USD", "ar_KW", "Kuwait"),
        ("LAO", "LA", nil, "USD", "lo_LA", "Laos"),
        ("LBN", "LB", "143497", "USD", "ar_LB", "Lebanon"),
        ("LBR", "LR", nil, "USD", "en_LR", "Liberia"),
        ("LBY", "LY", nil, "USD", "ar_LY", "Libya"),
        ("LCA", "LC", nil, "USD", "en_LC", "Saint Lucia"),
        ("LKA", "LK", "143486", "USD", "si_LK", "Sri Lanka"),
        ("LTU", "LT", "143520", "EUR", "lt_LT", "Lithuania"),
        ("LUX", "LU", "143451", "EUR", "fr_LU", "Luxembourg"),
        ("LVA", "LV", "143519", "EUR", "lv_LV", "Latvia"),
        ("MAC", "MO", "143515", "USD", "zh_MO", "Macao"),
        ("MAR", "MA", nil, "USD", "ar_MA", "Morocco"),
        ("MDA", "MD", nil, "USD", "ro_MD", "Moldova"),
        ("MDG", "MG", "143531", "USD", "fr_MG", "Madagascar"),
        ("MDV", "MV", nil, "USD", "dv_MV", "Maldives"),
        ("MEX", "MX", "143468", "MXN", "es_MX", "Mexico"),
        ("MKD", "MK", "143530", "USD", "mk_MK", "North Macedonia"),
        ("MLI", "ML", "143532", "USD", "fr_ML", "Mali"),
        ("MLT", "MT", "143521", "EUR", "mt_MT", "Malta"),
        ("MMR", "MM", nil, "USD", "my_MM", "Myanmar"),
        ("MNE", "ME", nil, "EUR", "sr_ME", "Montenegro"),
        ("MNG", "MN", nil, "USD", "mn_MN", "Mongolia"),
        ("MOZ", "MZ", nil, "USD", "pt_MZ", "Mozambique"),
        ("MRT", "MR", nil, "USD", "ar_MR", "Mauritania"),
        ("MSR", "MS", "143547", "USD", "en_MS", "Montserrat"),
        ("MUS", "MU", "143533", "USD", "en_MU", "Mauritius"),
        ("MWI", "MW", nil, "USD", "en_MW", "Malawi"),
        ("MYS", "MY", "143473", "MYR", "ms_MY", "Malaysia"),
        ("NAM", "NA", nil, "USD", "en_NA", "Namibia"),
        ("NER", "NE", "143534", "USD", "fr_NE", "Niger"),
        ("NGA", "NG", "143561", "NGN", "en_NG", "Nigeria"),
        ("NIC", "NI", "143512", "USD", "es_NI", "Nicaragua"),
        ("NLD", "NL", "143452", "EUR", "nl_NL", "Netherlands"),
        ("NOR", "NO", "143457", "NOK", "nb_NO", "Norway"),
        ("NPL", "NP", "143484", "USD", "ne_NP", "Nepal"),
        ("NRU", "NR", nil, "USD", "en_NR", "Nauru"),
        ("NZL", "NZ", "143461", "NZD", "en_NZ", "New Zealand"),
        ("OMN", "OM", "143562", "USD", "ar_OM", "Oman"),
        ("PAK", "PK", "143477", "PKR", "ur_PK", "Pakistan"),
        ("PAN", "PA", "143485", "USD", "es_PA", "Panama"),
        ("PER", "PE", "143507", "PEN", "es_PE", "Peru"),
        ("PHL", "PH", "143474", "PHP", "en_PH", "Philippines"),
        ("PLW", "PW", nil, "USD", "en_PW", "Palau"),
        ("PNG", "PG", nil, "USD", "en_PG", "Papua New Guinea"),
        ("POL", "PL", "143478", "PLN", "pl_PL", "Poland"),
        ("PRT", "PT", "143453", "EUR", "pt_PT", "Portugal"),
        ("PRY", "PY", "143513", "USD", "es_PY", "Paraguay"),
        ("QAT", "QA", "143498", "QAR", "ar_QA", "Qatar"),
        ("ROU", "RO", "143487", "RON", "ro_RO", "Romania"),
        ("RUS", "RU", "143469", "RUB", "ru_RU", "Russia"),
        ("RWA", "RW", nil, "USD", "rw_RW", "Rwanda"),
        ("SAU", "SA", "143479", "SAR", "ar_SA", "Saudi Arabia"),
        ("SEN", "SN", "143535", "USD", "fr_SN", "Senegal"),
        ("SGP", "SG", "143464", "SGD", "en_SG", "Singapore"),
        ("SLB", "SB", nil, "USD", "en_SB", "Solomon Islands"),
        ("SLE", "SL", nil, "USD", "en_SL", "Sierra Leone"),
        ("SLV", "SV", "143506", "USD", "es_SV", "El Salvador"),
        ("SRB", "RS", nil, "EUR", "sr_RS", "Serbia"),
        ("STP", "ST", nil, "USD", "pt_ST", "São Tomé and Príncipe"),
        ("SUR", "SR", "143554", "USD", "nl_SR", "Suriname"),
        ("SVK", "SK", "143496", "EUR", "sk_SK", "Slovakia"),
        ("SVN", "SI", "143499", "EUR", "sl_SI", "Slovenia"),
        ("SWE", "SE", "143456", "SEK", "sv_SE", "Sweden"),
        ("SWZ", "SZ", nil, "USD", "en_SZ", "Eswatini"),
        ("SYC", "SC", nil, "USD", "en_SC", "Seychelles"),
        ("TCA", "TC", nil, "USD", "en_TC", "Turks and Caicos Islands"),
        ("TCD", "TD", nil, "USD", "fr_TD", "Chad"),
        ("THA", "TH", "143475", "THB", "th_TH", "Thailand"),
        ("TJK", "TJ", nil, "USD", "tg_TJ", "Tajikistan"),
        ("TKM", "TM", nil, "USD", "tk_TM", "Turkmenistan"),
        ("TON", "TO", nil, "USD", "to_TO", "Tonga"),
        ("TTO", "TT", nil, "USD", "en_TT", "Trinidad and Tobago"),
        ("TUN", "TN", "143536", "USD", "ar_TN", "Tunisia"),
        ("TUR", "TR", "143480", "TRY", "tr_TR", "Türkiye"),
        ("TWN", "TW", "143470", "TWD", "zh_TW", "Taiwan"),
        ("TZA", "TZ", "143572", "TZS", "sw_TZ", "Tanzania"),
        ("UGA", "UG", "143537", "USD", "en_UG", "Uganda"),
        ("UKR", "UA", "143492", "USD", "uk_UA", "Ukraine"),
        ("URY", "UY", "143514", "USD", "es_UY", "Uruguay"),
        ("USA", "US", "143441", "USD", "en_US", "United States"),
        ("UZB", "UZ", "143566", "USD", "uz_UZ", "Uzbekistan"),
        ("VCT", "VC", nil, "USD", "en_VC", "Saint Vincent and the Grenadines"),
        ("VEN", "VE", "143502", "USD", "es_VE", "Venezuela"),
        ("VGB", "VG", "143543", "USD", "en_VG", "British Virgin Islands"),
        ("VNM", "VN", "143471", "VND", "vi_VN", "Vietnam"),
        ("VUT", "VU", nil, "USD", "bi_VU", "Vanuatu"),
        ("XKS", "XK", nil, "EUR", "sq_XK", "Kosovo"),
        ("YEM", "YE", "143571", "USD", "ar_YE", "Yemen"),
        ("ZAF", "ZA", "143472", "ZAR", "en_ZA", "South Africa"),
        ("ZMB", "ZM", nil, "USD", "en_ZM", "Zambia"),
        ("ZWE", "ZW", nil, "USD", "en_ZW", "Zimbabwe"),
    ]

    /// The storefront with this code (case-insensitive), or nil: a binary search of `rows`, which
    /// are sorted by code (`StorefrontTableTests` holds it to that). No dictionary is built: every
    /// purchase looks its storefront up, and a one-process `buy` would otherwise spend more on
    /// building that index (and on the runtime's first lookups for its types) than on the search.
    public static func named(_ code: String) -> Storefront? {
        position(of: code).map { Storefront(rows[$0]) }
    }

    /// The code and currency of the storefront with this code (case-insensitive), or nil: what a
    /// new transaction records, without building the whole storefront (every purchase asks).
    static func codeAndCurrency(_ code: String) -> (code: String, currency: String)? {
        guard let i = position(of: code) else { return nil }
        return rows.withUnsafeBufferPointer { ($0[i].code, $0[i].currency) }
    }

    /// Where in `rows` the storefront with this code is: a binary search of `keys`, the codes as
    /// integers, so a probe compares two words instead of two strings.
    private static func position(of code: String) -> Int? {
        // Codes are stored upper-case (every transaction's is): `key` folds ASCII letters
        // itself. A code with a non-ASCII letter is uppercased as text and compared as text, as
        // strings compare ("uſa" uppercases to "USA"; "\u{212A}OR", with a Kelvin sign, equals "KOR").
        guard let key = key(code) else {
            guard code.utf8.contains(where: { $0 >= 0x80 }) else { return nil }
            let upper = code.uppercased()
            return rows.firstIndex { $0.code == upper }
        }
        return keys.withUnsafeBufferPointer { table in
            var low = 0
            var high = table.count
            while low < high {
                let mid = (low + high) / 2
                if table[mid] < key { low = mid + 1 } else { high = mid }
            }
            return low < table.count && table[low] == key ? low : nil
        }
    }

    /// A three-letter ASCII code, upper-cased, as one integer whose order is the text's; nil
    /// for anything else.
    static func key(_ code: String) -> UInt32? {
        let utf8 = code.utf8
        guard utf8.count == 3 else { return nil }
        func key(_ bytes: some Sequence<UInt8>) -> UInt32? {
            var key: UInt32 = 0
            for byte in bytes {
                guard byte < 0x80 else { return nil }
                key = key << 8 | UInt32(byte >= 0x61 && byte <= 0x7A ? byte - 0x20 : byte)
            }
            return key
        }
        // Through the string's bytes (a short string's are copied to the stack), not its
        // UTF-8 view's iterator: this runs for every purchase.
        return utf8.withContiguousStorageIfAvailable { key($0) } ?? key(utf8)
    }

    /// `rows`' codes as `key` makes them, in the same (sorted) order: "AFG" is 0x414647.
    ///
    /// Written out rather than computed from `rows`: a literal table is laid out by the compiler
    /// in the binary, where computing it cost every purchase some 20 thousand instructions at
    /// start-up. `StorefrontTableTests` holds it to `rows`.
    static let keys: [UInt32] = [
        0x414647, 0x41474F, 0x414941, 0x414C42, 0x415245, 0x415247, 0x41524D, 0x415447, 0x415553, 0x415554,
        0x415A45, 0x42454C, 0x42454E, 0x424641, 0x424752, 0x424852, 0x424853, 0x424948, 0x424C52, 0x424C5A,
        0x424D55, 0x424F4C, 0x425241, 0x425242, 0x42524E, 0x42544E, 0x425741, 0x43414E, 0x434845, 0x43484C,
        0x43484E, 0x434956, 0x434D52, 0x434F44, 0x434F47, 0x434F4C, 0x435056, 0x435249, 0x43594D, 0x435950,
        0x435A45, 0x444555, 0x444D41, 0x444E4B, 0x444F4D, 0x445A41, 0x454355, 0x454759, 0x455350, 0x455354,
        0x46494E, 0x464A49, 0x465241, 0x46534D, 0x474142, 0x474252, 0x47454F, 0x474841, 0x474D42, 0x474E42,
        0x475243, 0x475244, 0x47544D, 0x475559, 0x484B47, 0x484E44, 0x485256, 0x48554E, 0x49444E, 0x494E44,
        0x49524C, 0x495251, 0x49534C, 0x495352, 0x495441, 0x4A414D, 0x4A4F52, 0x4A504E, 0x4B415A, 0x4B454E,
        0x4B475A, 0x4B484D, 0x4B4E41, 0x4B4F52, 0x4B5754, 0x4C414F, 0x4C424E, 0x4C4252, 0x4C4259, 0x4C4341,
        0x4C4B41, 0x4C5455, 0x4C5558, 0x4C5641, 0x4D4143, 0x4D4152, 0x4D4441, 0x4D4447, 0x4D4456, 0x4D4558,
        0x4D4B44, 0x4D4C49, 0x4D4C54, 0x4D4D52, 0x4D4E45, 0x4D4E47, 0x4D4F5A, 0x4D5254, 0x4D5352, 0x4D5553,
        0x4D5749, 0x4D5953, 0x4E414D, 0x4E4552, 0x4E4741, 0x4E4943, 0x4E4C44, 0x4E4F52, 0x4E504C, 0x4E5255,
        0x4E5A4C, 0x4F4D4E, 0x50414B, 0x50414E, 0x504552, 0x50484C, 0x504C57, 0x504E47, 0x504F4C, 0x505254,
        0x505259, 0x514154, 0x524F55, 0x525553, 0x525741, 0x534155, 0x53454E, 0x534750, 0x534C42, 0x534C45,
        0x534C56, 0x535242, 0x535450, 0x535552, 0x53564B, 0x53564E, 0x535745, 0x53575A, 0x535943, 0x544341,
        0x544344, 0x544841, 0x544A4B, 0x544B4D, 0x544F4E, 0x54544F, 0x54554E, 0x545552, 0x54574E, 0x545A41,
        0x554741, 0x554B52, 0x555259, 0x555341, 0x555A42, 0x564354, 0x56454E, 0x564742, 0x564E4D, 0x565554,
        0x584B53, 0x59454D, 0x5A4146, 0x5A4D42, 0x5A5745,
    ]

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
