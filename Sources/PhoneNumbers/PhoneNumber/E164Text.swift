/// A number's E.164 form held inline, without a heap allocation: "+", the country calling code and
/// the national significant number, at most 21 ASCII bytes.
///
/// ``PhoneNumberEngine/formatE164(_:)`` returns a `String`, which holds at most 15 bytes inline: a
/// number whose E.164 form is 16 bytes or more ("+878 1084 3212 9611", "+882 ...", and numbers that
/// are too long) gets heap storage, about 3 numbers in 100 of a real list. ``PhoneNumber/e164``
/// gives the same text as this value instead, for a loop that writes it out, compares it or uses
/// it as a key: no allocation, no reference counting, three words.
///
/// ```swift
/// let number = try engine.parse(e164: "+878108432129611")   // a valid +878 VoIP number
/// if let e164 = number.e164 {
///     e164.count                                     // 16: as a String it would allocate
///     e164.withUTF8 { output.append(contentsOf: $0) }  // the bytes, in place
///     print(e164)                                    // +878108432129611
/// }
/// ```
public struct E164Text: Sendable, Hashable, Comparable, CustomStringConvertible {
    /// The text's bytes from the first (memory order), zeros after them, the count in the last
    /// byte (`countWord(_:)`).
    var _words: (UInt64, UInt64, UInt64)

    /// The most bytes the text has: "+", three digits of calling code, 17 of national number
    /// (libphonenumber's longest national significant number).
    public static var maxCount: Int { 21 }

    /// The third word with the count in its last byte in memory.
    @inline(__always)
    static func countWord(_ count: Int) -> UInt64 { (UInt64(truncatingIfNeeded: count) &<< 56).littleEndian }

    /// The number of ASCII bytes (3...21: "+", at least one digit of code and one of number).
    @inline(__always)
    public var count: Int { Int(truncatingIfNeeded: _words.2.littleEndian &>> 56) }

    /// Calls `body` with the text's ASCII bytes, in place.
    @inline(__always)
    public func withUTF8<R>(_ body: (UnsafeBufferPointer<UInt8>) throws -> R) rethrows -> R {
        let count = count
        return try withUnsafeBytes(of: _words) { raw in
            try body(UnsafeBufferPointer(start: raw.baseAddress!.assumingMemoryBound(to: UInt8.self), count: count))
        }
    }

    /// The text as a `String` (which allocates for 16 bytes or more).
    public var description: String {
        withUTF8 { String(decoding: $0, as: UTF8.self) }
    }

    public static func == (a: E164Text, b: E164Text) -> Bool {
        a._words.0 == b._words.0 && a._words.1 == b._words.1 && a._words.2 == b._words.2
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(_words.0)
        hasher.combine(_words.1)
        hasher.combine(_words.2)
    }

    /// Byte order, as `String` compares ASCII: "+1..." before "+44...", a text before the longer
    /// texts that start with it.
    public static func < (a: E164Text, b: E164Text) -> Bool {
        // The bytes after the text are zero and every byte of a text is above zero, so comparing
        // the zero-padded words compares the texts; the count byte is never reached first.
        let x = (a._words.0.bigEndian, a._words.1.bigEndian, a._words.2.bigEndian)
        let y = (b._words.0.bigEndian, b._words.1.bigEndian, b._words.2.bigEndian)
        return x < y
    }

    /// "+", the calling code (1...999) and the 1...16 digits a number keeps (`_NationalDigits`),
    /// without a branch on the lengths: in 56 zeroed bytes, the digits as a 16-byte block ending
    /// at byte 32, "+" and the code right before the first digit, then the three words loaded
    /// from where "+" is (the bytes after 32 are zero).
    @inline(__always)
    init(countryCode code: Int, digits: _NationalDigits, count: Int) {
        assert(code > 0 && code < 1000 && count >= 1 && count <= 16)
        let total = 2 &+ (code >= 10 ? 1 : 0) &+ (code >= 100 ? 1 : 0) &+ count
        let block = digits.block
        var scratch: (UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64) = (0, 0, block.0, block.1, 0, 0, 0)
        _words = withUnsafeMutableBytes(of: &scratch) { raw in
            raw.storeBytes(of: _e164PrefixWord(code), toByteOffset: 28 &- count, as: UInt32.self)
            let start = 32 &- total
            return (raw.loadUnaligned(fromByteOffset: start, as: UInt64.self),
                    raw.loadUnaligned(fromByteOffset: start &+ 8, as: UInt64.self),
                    raw.loadUnaligned(fromByteOffset: start &+ 16, as: UInt64.self) | Self.countWord(total))
        }
    }

    /// "+", the calling code (1...999) and a national significant number of 1...17 ASCII digits.
    init(countryCode: Int, nationalSignificantNumber nsn: UnsafeBufferPointer<UInt8>) {
        assert(countryCode > 0 && countryCode < 1000 && !nsn.isEmpty && nsn.count <= 17)
        var words: (UInt64, UInt64, UInt64) = (0, 0, 0)
        let total = withUnsafeMutableBytes(of: &words) { raw in
            let out = raw.baseAddress!.assumingMemoryBound(to: UInt8.self)
            let (prefix, codeDigits) = _e164Prefix(UInt32(countryCode))
            raw.storeBytes(of: prefix.littleEndian, as: UInt32.self)  // 4 bytes, the unused ones overwritten
            for k in 0..<nsn.count { out[1 &+ codeDigits &+ k] = nsn[k] }
            return 1 &+ codeDigits &+ nsn.count
        }
        words.2 |= Self.countWord(total)
        _words = words
    }
}

extension PhoneNumber {
    /// The number in E.164 ("+" and digits, no extension), held inline: the text of
    /// ``PhoneNumberEngine/formatE164(_:)`` without a `String`, so without an allocation for the
    /// 16- to 21-byte ones.
    ///
    /// `nil` only for a number built by hand with fields no E.164 text has: a calling code outside
    /// 1...999, or a national significant number (leading zeros and national number) of more than
    /// 17 digits. Every parsed number has one.
    ///
    /// - Complexity: O(1) for the numbers of 16 digits or fewer that parsing makes; no allocation.
    @inline(__always)
    public var e164: E164Text? {
        let code = countryCode
        let count = _digits.count
        if code > 0, code < 1000, count != 0 {
            return E164Text(countryCode: code, digits: _digits, count: count)
        }
        return _longE164
    }

    /// ``e164`` for 17 digits, or for the fields of no E.164 number.
    var _longE164: E164Text? {
        let code = countryCode
        guard code > 0, code < 1000, leadingZeros >= 0,
              leadingZeros <= PhoneNumberEngine.maxNationalLength,
              _decimalDigitCount(nationalNumber) &+ leadingZeros <= PhoneNumberEngine.maxNationalLength
        else { return nil }
        return withNationalSignificantNumber { E164Text(countryCode: code, nationalSignificantNumber: $0) }
    }
}

/// "+" and the digits of each calling code 0...999 as the last bytes of four in memory order
/// ("__+1", "_+44", "+358"; code 0 is "____"): what ``E164Text`` stores right before a number's
/// first digit, one load. The bytes before "+" land before the text and are never read. A
/// StaticString is in the binary's read-only data: a global array would be initialized lazily,
/// a `swift_once` call on every use (~15 instructions a number).
@inline(__always)
func _e164PrefixWord(_ code: Int) -> UInt32 {
    UnsafeRawPointer(_e164PrefixText.utf8Start).loadUnaligned(fromByteOffset: 4 &* code, as: UInt32.self)
}

private var _e164PrefixText: StaticString {
    """
    ______+1__+2__+3__+4__+5__+6__+7__+8__+9_+10_+11_+12_+13_+14_+15_+16_+17_+18_+19\
    _+20_+21_+22_+23_+24_+25_+26_+27_+28_+29_+30_+31_+32_+33_+34_+35_+36_+37_+38_+39\
    _+40_+41_+42_+43_+44_+45_+46_+47_+48_+49_+50_+51_+52_+53_+54_+55_+56_+57_+58_+59\
    _+60_+61_+62_+63_+64_+65_+66_+67_+68_+69_+70_+71_+72_+73_+74_+75_+76_+77_+78_+79\
    _+80_+81_+82_+83_+84_+85_+86_+87_+88_+89_+90_+91_+92_+93_+94_+95_+96_+97_+98_+99\
    +100+101+102+103+104+105+106+107+108+109+110+111+112+113+114+115+116+117+118+119\
    +120+121+122+123+124+125+126+127+128+129+130+131+132+133+134+135+136+137+138+139\
    +140+141+142+143+144+145+146+147+148+149+150+151+152+153+154+155+156+157+158+159\
    +160+161+162+163+164+165+166+167+168+169+170+171+172+173+174+175+176+177+178+179\
    +180+181+182+183+184+185+186+187+188+189+190+191+192+193+194+195+196+197+198+199\
    +200+201+202+203+204+205+206+207+208+209+210+211+212+213+214+215+216+217+218+219\
    +220+221+222+223+224+225+226+227+228+229+230+231+232+233+234+235+236+237+238+239\
    +240+241+242+243+244+245+246+247+248+249+250+251+252+253+254+255+256+257+258+259\
    +260+261+262+263+264+265+266+267+268+269+270+271+272+273+274+275+276+277+278+279\
    +280+281+282+283+284+285+286+287+288+289+290+291+292+293+294+295+296+297+298+299\
    +300+301+302+303+304+305+306+307+308+309+310+311+312+313+314+315+316+317+318+319\
    +320+321+322+323+324+325+326+327+328+329+330+331+332+333+334+335+336+337+338+339\
    +340+341+342+343+344+345+346+347+348+349+350+351+352+353+354+355+356+357+358+359\
    +360+361+362+363+364+365+366+367+368+369+370+371+372+373+374+375+376+377+378+379\
    +380+381+382+383+384+385+386+387+388+389+390+391+392+393+394+395+396+397+398+399\
    +400+401+402+403+404+405+406+407+408+409+410+411+412+413+414+415+416+417+418+419\
    +420+421+422+423+424+425+426+427+428+429+430+431+432+433+434+435+436+437+438+439\
    +440+441+442+443+444+445+446+447+448+449+450+451+452+453+454+455+456+457+458+459\
    +460+461+462+463+464+465+466+467+468+469+470+471+472+473+474+475+476+477+478+479\
    +480+481+482+483+484+485+486+487+488+489+490+491+492+493+494+495+496+497+498+499\
    +500+501+502+503+504+505+506+507+508+509+510+511+512+513+514+515+516+517+518+519\
    +520+521+522+523+524+525+526+527+528+529+530+531+532+533+534+535+536+537+538+539\
    +540+541+542+543+544+545+546+547+548+549+550+551+552+553+554+555+556+557+558+559\
    +560+561+562+563+564+565+566+567+568+569+570+571+572+573+574+575+576+577+578+579\
    +580+581+582+583+584+585+586+587+588+589+590+591+592+593+594+595+596+597+598+599\
    +600+601+602+603+604+605+606+607+608+609+610+611+612+613+614+615+616+617+618+619\
    +620+621+622+623+624+625+626+627+628+629+630+631+632+633+634+635+636+637+638+639\
    +640+641+642+643+644+645+646+647+648+649+650+651+652+653+654+655+656+657+658+659\
    +660+661+662+663+664+665+666+667+668+669+670+671+672+673+674+675+676+677+678+679\
    +680+681+682+683+684+685+686+687+688+689+690+691+692+693+694+695+696+697+698+699\
    +700+701+702+703+704+705+706+707+708+709+710+711+712+713+714+715+716+717+718+719\
    +720+721+722+723+724+725+726+727+728+729+730+731+732+733+734+735+736+737+738+739\
    +740+741+742+743+744+745+746+747+748+749+750+751+752+753+754+755+756+757+758+759\
    +760+761+762+763+764+765+766+767+768+769+770+771+772+773+774+775+776+777+778+779\
    +780+781+782+783+784+785+786+787+788+789+790+791+792+793+794+795+796+797+798+799\
    +800+801+802+803+804+805+806+807+808+809+810+811+812+813+814+815+816+817+818+819\
    +820+821+822+823+824+825+826+827+828+829+830+831+832+833+834+835+836+837+838+839\
    +840+841+842+843+844+845+846+847+848+849+850+851+852+853+854+855+856+857+858+859\
    +860+861+862+863+864+865+866+867+868+869+870+871+872+873+874+875+876+877+878+879\
    +880+881+882+883+884+885+886+887+888+889+890+891+892+893+894+895+896+897+898+899\
    +900+901+902+903+904+905+906+907+908+909+910+911+912+913+914+915+916+917+918+919\
    +920+921+922+923+924+925+926+927+928+929+930+931+932+933+934+935+936+937+938+939\
    +940+941+942+943+944+945+946+947+948+949+950+951+952+953+954+955+956+957+958+959\
    +960+961+962+963+964+965+966+967+968+969+970+971+972+973+974+975+976+977+978+979\
    +980+981+982+983+984+985+986+987+988+989+990+991+992+993+994+995+996+997+998+999
    """
}
