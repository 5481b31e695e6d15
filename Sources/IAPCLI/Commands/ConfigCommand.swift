import IAPKit

/// `iapctl config get|set`: the store's settings.
enum ConfigCommand {
    static var settingsHelp: String {
        SettingKey.allCases.map { "  \($0.rawValue): \($0.summary)" }.joined(separator: "\n")
    }

    static let group = CommandSpec(
        name: "config",
        summary: "Read or change store settings (payments-allowed, storefront, ...)",
        discussion: "Settings:\n" + settingsHelp,
        subcommands: [get.spec, set.spec]
    )

    static let children = [get, set]

    static let get = CommandDefinition(
        CommandSpec(
            name: "get",
            summary: "Print one setting, or all of them",
            arguments: [ArgumentSpec("KEY", help: "The setting", optional: true)],
            examples: ["iapctl config get", "iapctl config get storefront"]
        ), run: runGet)

    static let set = CommandDefinition(
        CommandSpec(
            name: "set",
            summary: "Change a setting",
            discussion: "Settings:\n" + settingsHelp,
            arguments: [ArgumentSpec("KEY", help: "The setting"), ArgumentSpec("VALUE", help: "Its new value")],
            examples: ["iapctl config set payments-allowed false", "iapctl config set storefront JPN"]
        ), run: runSet)

    static func key(_ name: String) throws(StoreError) -> SettingKey {
        guard let key = SettingKey(rawValue: name) else {
            throw .unknownSetting(name, suggestion: Suggestions.nearest(to: name, among: SettingKey.names))
        }
        return key
    }

    static func runGet(_ c: CommandContext) throws -> ExitCode {
        let name = c.invocation.positional("KEY")
        return try c.read { s throws(StoreError) in
            let keys = try name.map { n throws(StoreError) in [try key(n)] } ?? SettingKey.allCases
            if c.json {
                c.printJSON { w in
                    w.beginObject()
                    for k in keys {
                        w.key(k.rawValue)
                        w.string(k.value(in: s.state.settings))
                    }
                    w.endObject()
                }
            } else if name != nil {
                c.stdout.line(keys[0].value(in: s.state.settings))
            } else {
                for k in keys { c.stdout.line("\(k.rawValue) = \(k.value(in: s.state.settings))") }
            }
            return .success
        }
    }

    static func runSet(_ c: CommandContext) throws -> ExitCode {
        let name = c.invocation.positional("KEY") ?? ""
        let value = c.invocation.positional("VALUE") ?? ""
        // A bad key or value is refused before the store is opened, so that it creates nothing
        // (the machine checks the value again, against the store's own settings).
        var probe = Settings()
        try key(name).set(value, in: &probe)
        return try c.write { s throws(StoreError) in
            let k = try key(name)
            try s.apply(.setSetting(key: k.rawValue, value: value))
            let shown = k.value(in: s.state.settings)
            if c.json {
                c.printJSON { w in
                    w.beginObject()
                    w.key(k.rawValue)
                    w.string(shown)
                    w.endObject()
                }
            } else {
                c.stdout.line("\(k.rawValue) = \(shown)")
            }
            return .success
        }
    }
}
