// The one writer of a number's E.164 text: "+", the country calling code and the national
// significant number. `PhoneNumberEngine.formatE164(_:)` (a String), `format(_:as: .e164)`,
// `PhoneNumber.e164` (an inline `E164Text`) and `PhoneNumber.writeE164(into:)` (bytes into a
// caller's buffer, for record writers such as `smskit validate`) all call `_writeE164(to:)`.

extension PhoneNumber {
    /// Writes the number's E.164 text, the same text as ``PhoneNumberEngine/formatE164(_:)``,
    /// at the start of `buffer`, without allocating.
    ///
    /// For a loop that writes many numbers into an output buffer: no `String` is made. Nothing is
    /// written when the text does not fit; compare the result with `buffer.count`. The bytes of
    /// `buffer` after the text may be overwritten (a buffer of 64 bytes or more is written in
    /// place, with wide stores; a smaller one through a copy).
    ///
    /// ```swift
    /// let number = try engine.parse("(650) 253-0000", defaultRegion: "US")
    /// var output = [UInt8](repeating: 0, count: 64)
    /// let count = output.withUnsafeMutableBytes { number.writeE164(into: $0) }
    /// String(decoding: output[..<count], as: UTF8.self)   // "+16502530000"
    /// ```
    ///
    /// - Parameter buffer: Where to write the text's ASCII bytes.
    /// - Returns: The length of the text in bytes (at most ``E164Text/maxCount`` for every parsed
    ///   number); when it is more than `buffer.count`, nothing was written.
    /// - Complexity: O(1) for parsed numbers of up to 16 national digits; no allocation.
    public func writeE164(into buffer: UnsafeMutableRawBufferPointer) -> Int {
        if buffer.count >= Self._e164Room, let base = buffer.baseAddress {
            return _writeE164(to: base)
        }
        return withUnsafeTemporaryAllocation(byteCount: Self._e164Room, alignment: 8) { scratch in
            let count = _writeE164(to: scratch.baseAddress!)
            if count <= buffer.count, let base = buffer.baseAddress {
                base.copyMemory(from: scratch.baseAddress!, byteCount: count)
            }
            return count
        }
    }

    /// The E.164 text as a `String`, built once from ``_writeE164(to:)``'s bytes.
    var _e164String: String {
        withUnsafeTemporaryAllocation(byteCount: Self._e164Room, alignment: 8) { scratch in
            let count = _writeE164(to: scratch.baseAddress!)
            return String(unsafeUninitializedCapacity: count) { storage in
                UnsafeMutableRawPointer(storage.baseAddress!).copyMemory(from: scratch.baseAddress!, byteCount: count)
                return count
            }
        }
    }

    /// The room ``_writeE164(to:)`` needs: "+", "-" and 19 digits of calling code, 32 of
    /// national significant number for the fields of a number built by hand; 24 bytes are
    /// stored for every number of up to 16 national digits.
    static var _e164Room: Int { 64 }

    /// Writes "+", the calling code and the national significant number as ASCII at `out` (room
    /// for ``_e164Room`` bytes) and returns the count.
    ///
    /// Nearly every number (calling code 1...999, 1 to 16 national digits) without a branch on
    /// the lengths or a loop: in 56 zeroed bytes, the national digits as a 16-byte block ending
    /// at byte 32, "+" and the code (one load from a table) right before the first digit, then
    /// the three words from where "+" is stored at `out` (24 bytes, zeros after the text).
    @inline(__always)
    func _writeE164(to out: UnsafeMutableRawPointer) -> Int {
        let code = countryCode
        let count = _digits.count
        guard code > 0, code < 1000, count != 0 else { return _writeLongE164(to: out) }
        let total = 2 &+ (code >= 10 ? 1 : 0) &+ (code >= 100 ? 1 : 0) &+ count
        let block = _digits.block
        var scratch: (UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64) = (0, 0, block.0, block.1, 0, 0, 0)
        withUnsafeMutableBytes(of: &scratch) { raw in
            raw.storeBytes(of: _e164PrefixWord(code), toByteOffset: 28 &- count, as: UInt32.self)
            let start = 32 &- total
            out.storeBytes(of: raw.loadUnaligned(fromByteOffset: start, as: UInt64.self), as: UInt64.self)
            out.storeBytes(of: raw.loadUnaligned(fromByteOffset: start &+ 8, as: UInt64.self), toByteOffset: 8, as: UInt64.self)
            out.storeBytes(of: raw.loadUnaligned(fromByteOffset: start &+ 16, as: UInt64.self), toByteOffset: 16, as: UInt64.self)
        }
        return total
    }

    /// ``_writeE164(to:)`` for 17 national digits, or for fields no parse gives (a calling code
    /// outside 1...999 is written as its decimal text, "-" included).
    @inline(never)
    func _writeLongE164(to out: UnsafeMutableRawPointer) -> Int {
        var p = out.assumingMemoryBound(to: UInt8.self)
        p[0] = UInt8(ascii: "+")
        p += 1
        if countryCode < 0 {
            p[0] = UInt8(ascii: "-")
            p += 1
        }
        let code = UInt64(countryCode.magnitude)
        let codeDigits = _decimalDigitCount(code)
        _writeDecimal(code, digits: codeDigits, to: p)
        p += codeDigits
        return withNationalSignificantNumber { nsn in
            p.update(from: nsn.baseAddress!, count: nsn.count)
            return p + nsn.count - out.assumingMemoryBound(to: UInt8.self)
        }
    }
}

/// "+" and the digits of each calling code 0...999 as the last bytes of four in memory order
/// ("__+1", "_+44", "+358"; code 0 is "____"): what `_writeE164(to:)` stores right before a number's
/// first digit, one load. The bytes before "+" land before the text and are never read. A
/// StaticString is in the binary's read-only data: a global array would be initialized lazily,
/// a `swift_once` call on every use.
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
