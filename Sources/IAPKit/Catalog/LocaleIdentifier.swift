/// A locale identifier as StoreKit's `Locale.identifier` and Xcode's `.storekit` files write it:
/// `en_US`, `zh_CN`, `ja_JP`, `pt_BR`, a bare language (`de`), a script (`zh_Hans`, `zh_Hant_TW`).
///
/// Checked wherever a locale is accepted (`config set locale`, `products --locale`, a catalog's
/// localizations, a `.storekit` file's `_locale`), so that a typo is refused with a suggestion
/// instead of silently falling back to English: the language must be an ISO 639 code, the script
/// an ISO 15924 one, the region an ISO 3166-1 code or a UN M.49 area (`es_419`), each in the case
/// `Locale` writes it.
public enum LocaleIdentifier {
    /// Whether `text` is a well-formed locale identifier of known parts, in canonical case.
    public static func isValid(_ text: String) -> Bool {
        let parts = text.split(separator: "_", omittingEmptySubsequences: false).map(String.init)
        guard (1...3).contains(parts.count), languages.contains(parts[0]) else { return false }
        switch parts.count {
        case 1: return true
        case 2: return isScript(parts[1]) || isRegion(parts[1])
        default: return isScript(parts[1]) && isRegion(parts[2])
        }
    }

    /// Why `text` is not a locale and what to write instead (for "error: ..." lines), or nil
    /// when it is one: `'klingon' is not a locale; write language_REGION such as en_US, zh_CN or
    /// ja_JP`, with a "did you mean" when a locale is close (`en_us` -> `en_US`).
    public static func problem(_ text: String) -> String? {
        guard !isValid(text) else { return nil }
        let shown = text.isEmpty ? "an empty value" : "'\(text)'"
        let hint = suggestion(for: text).map { "; did you mean '\($0)'?" } ?? ""
        return "\(shown) is not a locale; write language_REGION such as en_US, zh_CN or ja_JP\(hint)"
    }

    /// The locale `text` most likely means: itself in canonical case with `_` for `-` when that
    /// is valid (`EN-us` -> `en_US`), else the nearest common locale, else nil.
    public static func suggestion(for text: String) -> String? {
        let parts = text.replacing("-", with: "_").split(separator: "_", omittingEmptySubsequences: false)
        let canonical = parts.enumerated().map { index, part -> String in
            if index == 0 { return part.lowercased() }
            if part.count == 4 { return part.prefix(1).uppercased() + part.dropFirst().lowercased() }
            return part.uppercased()
        }.joined(separator: "_")
        if canonical != text, isValid(canonical) { return canonical }
        return Suggestions.nearest(to: text, among: common)
    }

    /// The locales offered as suggestions: the storefronts' languages and the App Store's
    /// localizations.
    public static let common: [String] = [
        "ar_SA", "ca_ES", "cs_CZ", "da_DK", "de_DE", "el_GR", "en_AU", "en_CA", "en_GB", "en_US", "es_ES", "es_MX", "fi_FI",
        "fr_CA", "fr_FR", "he_IL", "hi_IN", "hr_HR", "hu_HU", "id_ID", "it_IT", "ja_JP", "ko_KR", "ms_MY", "nl_NL", "nb_NO",
        "pl_PL", "pt_BR", "pt_PT", "ro_RO", "ru_RU", "sk_SK", "sv_SE", "th_TH", "tr_TR", "uk_UA", "vi_VN", "zh_CN", "zh_HK",
        "zh_TW", "zh_Hans", "zh_Hant",
    ]

    private static func isScript(_ part: String) -> Bool { scripts.contains(part) }

    private static func isRegion(_ part: String) -> Bool {
        if part.count == 3 { return part.utf8.allSatisfy { (0x30...0x39).contains($0) } }
        return regions.contains(part)
    }

    /// ISO 639-1, and the few three-letter ISO 639 languages the App Store localizes into.
    static let languages: Set<String> = Set(
        """
        aa ab ae af ak am an ar as av ay az ba be bg bh bi bm bn bo br bs ca ce ch co cr cs cu cv cy da de dv dz ee \
        el en eo es et eu fa ff fi fj fo fr fy ga gd gl gn gu gv ha he hi ho hr ht hu hy hz ia id ie ig ii ik io is \
        it iu ja jv ka kg ki kj kk kl km kn ko kr ks ku kv kw ky la lb lg li ln lo lt lu lv mg mh mi mk ml mn mr ms \
        mt my na nb nd ne ng nl nn no nr nv ny oc oj om or os pa pi pl ps pt qu rm rn ro ru rw sa sc sd se sg si sk \
        sl sm sn so sq sr ss st su sv sw ta te tg th ti tk tl tn to tr ts tt tw ty ug uk ur uz ve vi vo wa wo xh yi \
        yo za zh zu ast chr ckb fil gsw haw kok yue
        """.split(separator: " ").map(String.init))

    /// ISO 15924 scripts that locale identifiers use.
    static let scripts: Set<String> = [
        "Arab", "Armn", "Beng", "Cyrl", "Deva", "Ethi", "Geor", "Grek", "Gujr", "Guru", "Hang", "Hani", "Hans", "Hant",
        "Hebr", "Hira", "Jpan", "Kana", "Khmr", "Knda", "Kore", "Laoo", "Latn", "Mlym", "Mong", "Mymr", "Orya", "Sinh",
        "Taml", "Telu", "Thaa", "Thai", "Tibt",
    ]

    /// ISO 3166-1 alpha-2.
    static let regions: Set<String> = Set(
        """
        AD AE AF AG AI AL AM AO AQ AR AS AT AU AW AX AZ BA BB BD BE BF BG BH BI BJ BL BM BN BO BQ BR BS BT BV BW BY \
        BZ CA CC CD CF CG CH CI CK CL CM CN CO CR CU CV CW CX CY CZ DE DJ DK DM DO DZ EC EE EG EH ER ES ET FI FJ FK \
        FM FO FR GA GB GD GE GF GG GH GI GL GM GN GP GQ GR GS GT GU GW GY HK HM HN HR HT HU ID IE IL IM IN IO IQ IR \
        IS IT JE JM JO JP KE KG KH KI KM KN KP KR KW KY KZ LA LB LC LI LK LR LS LT LU LV LY MA MC MD ME MF MG MH MK \
        ML MM MN MO MP MQ MR MS MT MU MV MW MX MY MZ NA NC NE NF NG NI NL NO NP NR NU NZ OM PA PE PF PG PH PK PL PM \
        PN PR PS PT PW PY QA RE RO RS RU RW SA SB SC SD SE SG SH SI SJ SK SL SM SN SO SR SS ST SV SX SY SZ TC TD TF \
        TG TH TJ TK TL TM TN TO TR TT TV TW TZ UA UG UM US UY UZ VA VC VE VG VI VN VU WF WS YE YT ZA ZM ZW
        """.split(separator: " ").map(String.init))
}
