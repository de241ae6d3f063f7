import CSMSKitICU

/// The version of the system ICU that renders templates, e.g. "72.1".
public var icuVersion: String { String(cString: smskit_icu_version()) }
