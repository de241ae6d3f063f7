#!/usr/bin/env python3
"""Writes the matcher fixture: the oracle's PhoneNumberMatcher over texts in many languages.

Tests/PhoneNumbersTests/Fixtures/matcher_texts.tsv, columns  id region text
    Texts (escaped as in parse.tsv) and the default region they are searched with (ZZ: none):
    for every region with example numbers, message bodies and sentences in a language of the
    region or of a list of languages (English, German, French, Spanish, Portuguese, Russian,
    Arabic, Hindi, Chinese, Japanese, Turkish, ...) holding the region's example numbers written
    nationally, internationally, in E.164, in RFC 3966, with extensions, regrouped, with other
    scripts' digits (Arabic-Indic, Devanagari, full-width), next to dates, times, prices,
    percentages, URLs, brackets, publication pages and letters; Google Contacts " ::: " cells with
    several numbers; and fixed edge cases.

Tests/PhoneNumbersTests/Fixtures/matcher.tsv, columns  id leniency start end raw e164 oracle
    Every match of PhoneNumberMatcher(text, region, leniency) for each text and each leniency
    (possible, valid, strict-grouping, exact-grouping): offsets in code points, the raw string,
    the number in E.164 (with ";ext=" and the extension when it has one). `oracle` is `both` for a
    match the oracle finds with and without its alternate formats (PhoneNumberAlternateFormats,
    which only the grouping levels read), `full` for one it finds only with them and `noalt` for
    one it finds only without them: SMSKit does not ship the alternate formats, so it must find
    the `both` and `noalt` rows, and the `full` rows are the named difference.

    pip install -r tools/requirements.txt
    python3 tools/oracle/gen_matcher_fixture.py
"""

import os
import random
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import oracle_common as oc  # noqa: E402

import phonenumbers  # noqa: E402
from phonenumbers import PhoneNumberFormat as PNF, PhoneNumberMatcher, Leniency  # noqa: E402
from phonenumbers import phonenumbermatcher as pm  # noqa: E402

LENIENCIES = [("possible", Leniency.POSSIBLE), ("valid", Leniency.VALID),
              ("strict-grouping", Leniency.STRICT_GROUPING), ("exact-grouping", Leniency.EXACT_GROUPING)]

# Sentences with a slot {n} for a number (and {m} for a second one), per language.
TEMPLATES = {
    "en": ["Call me at {n} tomorrow.", "My number is {n}, or try {m} after 6pm.", "Tel: {n} | Fax: {m}",
           "Reply STOP to {n}. Msg&data rates may apply.", "Meeting on 12/05/2023 at 10:30, dial {n}.",
           "Price: $12.99 (call {n})", "Visit https://example.com/{n} or call {n}",
           "Order #4521 shipped; questions? {n} ext. 204", "({n})", "[{n}] [{m}]", "{n}x12 {m}"],
    "de": ["Ruf mich an unter {n}!", "Telefon: {n}, Mobil: {m}", "Am 05.11.2023 um 14:00 Uhr unter {n} erreichbar.",
           "Preis 19,99 € – Hotline {n} (Mo–Fr)", "Tel.: {n} / Fax: {m}"],
    "fr": ["Appelez-moi au {n} demain.", "Tél. : {n} ; portable : {m}", "Le 05/11/2023 à 14h30, numéro {n}.",
           "Prix : 12,50 € — service client {n}"],
    "es": ["Llámame al {n} mañana.", "Teléfono: {n}; móvil: {m}", "El 5/11/2023 a las 14:30 llama al {n}.",
           "Precio 12,50 € – atención al cliente {n} extensión 12"],
    "pt": ["Ligue para {n} amanhã.", "Telefone: {n}, celular: {m}", "Em 05/11/2023 às 14h30, ligue {n}.",
           "Preço R$ 12,50 – SAC {n}"],
    "ru": ["Позвоните мне по номеру {n} завтра.", "Тел.: {n}, моб.: {m}", "12.05.2023 в 10:30 звоните {n} доб. 123",
           "Цена 1200₽, телефон {n}"],
    "ar": ["اتصل بي على {n} غدا.", "هاتف: {n} ، جوال: {m}", "السعر ١٢ ريال، اتصل {n}"],
    "hi": ["मुझे {n} पर कॉल करें।", "फ़ोन: {n}, मोबाइल: {m}", "कीमत ₹१२०, संपर्क {n}"],
    "zh": ["请拨打{n}联系我。", "电话：{n}，手机：{m}", "价格￥12，热线（{n}）"],
    "ja": ["お電話は{n}までお願いします。", "電話：{n}　携帯：{m}", "価格１２００円、お問い合わせ{n}"],
    "tr": ["Beni yarın {n} numarasından arayın.", "Tel: {n}, Cep: {m}", "Fiyat 12,50 ₺ – müşteri hizmetleri {n} dahili 12"],
    "it": ["Chiamami al {n} domani.", "Tel. {n} – cell. {m}"],
    "nl": ["Bel me op {n} morgen.", "Telefoon: {n}, mobiel: {m}"],
    "pl": ["Zadzwoń pod {n} jutro.", "Tel.: {n}, kom.: {m}"],
    "ko": ["{n}로 전화주세요.", "전화: {n}, 휴대폰: {m}"],
    "he": ["התקשרו אליי ל-{n} מחר."],
    "th": ["โทรหาฉันที่ {n} พรุ่งนี้"],
    "vi": ["Gọi cho tôi theo số {n} ngày mai."],
    "id": ["Hubungi saya di {n} besok."],
}
REGION_LANGUAGES = {
    "US": "en", "GB": "en", "CA": "en", "AU": "en", "NZ": "en", "IE": "en", "ZA": "en", "NG": "en", "KE": "en",
    "DE": "de", "AT": "de", "CH": "de", "FR": "fr", "BE": "fr", "LU": "fr", "SN": "fr", "ES": "es", "MX": "es",
    "AR": "es", "CO": "es", "CL": "es", "PE": "es", "BR": "pt", "PT": "pt", "AO": "pt", "RU": "ru", "BY": "ru",
    "KZ": "ru", "UA": "ru", "SA": "ar", "EG": "ar", "AE": "ar", "MA": "ar", "IQ": "ar", "IN": "hi", "CN": "zh",
    "TW": "zh", "HK": "zh", "JP": "ja", "TR": "tr", "IT": "it", "NL": "nl", "PL": "pl", "KR": "ko", "IL": "he",
    "TH": "th", "VN": "vi", "ID": "id",
}
ARABIC_INDIC = "٠١٢٣٤٥٦٧٨٩"
PERSIAN = "۰۱۲۳۴۵۶۷۸۹"
DEVANAGARI = "०१२३४५६७८९"
FULLWIDTH = "０１２３４５６７８９"
SCRIPT_OF = {"ar": ARABIC_INDIC, "hi": DEVANAGARI, "ja": FULLWIDTH, "zh": FULLWIDTH}

EDGE_CASES = [
    ("US", "Call +1 650-253-0000 or (650) 253 0000, 2023/11/05 12:30, $1 650 253 0000, 020 7946 0123"),
    ("US", "650-253-0000 x302/x2303"), ("US", "(530) 583-6985 x302/x2303"), ("US", "1 650 253 0000 12:45"),
    ("US", "2012-01-02 08:00"), ("US", "2012-01-02 08:00:00"), ("US", "12/31/2012 650-253-0000"),
    ("US", "211-227 (2003)"), ("US", "Pages 211-227 (2003) and 650 253 0000"), ("US", "80% of 650-253-0000"),
    ("US", "650-253-0000%"), ("US", "abc6502530000"), ("US", "6502530000abc"), ("US", "€6502530000"),
    ("US", "+1 (650) 253-0000 ext. 1234"), ("US", "650.253.0000"), ("US", "650 253 00 00"), ("US", "6502 530 000"),
    ("US", "((650)) 253-0000"), ("US", "[650] 253-0000"), ("US", "(650 253-0000"), ("US", "650) 253-0000"),
    ("US", "+1/650/253/0000"), ("US", "1/650/253/0000"), ("US", "650/253/0000"), ("US", "+1 650 253 0000 - 503#"),
    ("US", "650-253-0000;ext=12"), ("US", "+16502530000, +16502530001, +16502530002"),
    ("US", "tel:+1-650-253-0000"), ("US", "1-800-FLOWERS"), ("US", "xx650 253 0000"), ("US", "650 253 0000 xx12"),
    ("US", "+１ ６５０ ２５３ ００００"), ("US", "٦٥٠ ٢٥٣ ٠٠٠٠"), ("US", "Mobile: +44 7400 123456 (UK)"),
    ("GB", "Ring 020 7946 0123 or 07400 123456 or +44 (0)20 7946 0123"), ("GB", "0207 946 0123"),
    ("GB", "020 79460123"), ("GB", "2079460123"), ("GB", "020-7946-0123 x 12"),
    ("DE", "030 123456 / 0171 1234567 / +49 (0) 30 123456"), ("DE", "030/123456/789"),
    ("DE", "+49/30/123456"), ("DE", "Tel. 030 - 12 34 56"), ("DE", "0049 30 123456"),
    ("FR", "01 23 45 67 89 / 06.12.34.56.78 / +33 (0)1 23 45 67 89"), ("FR", "0033 1 23 45 67 89"),
    ("IT", "06 1234 5678, 347 123 4567, +39 06 12345678"), ("BR", "(11) 91234-5678, 0xx11 91234-5678"),
    ("BR", "(0xx11) 3456-7890"), ("RU", "8 (495) 123-45-67, +7 495 123 45 67, 8-800-555-35-35"),
    ("RU", "8 10 44 20 7946 0123"), ("JP", "03-1234-5678、090-1234-5678、＋８１ ３ １２３４ ５６７８"),
    ("CN", "010-12345678，138 0013 8000，+86 10 1234 5678"), ("IN", "+91 98765 43210, 098765 43210, ०९८७६५ ४३२१०"),
    ("EG", "٠١٠٠ ١٢٣ ٤٥٦٧ و +20 2 1234 5678"), ("IR", "۰۹۱۲ ۳۴۵ ۶۷۸۹"), ("AU", "(02) 1234 5678 or 0412 345 678"),
    ("ZZ", "+1 650 253 0000 and 650 253 0000 and +44 20 7946 0123"), ("ZZ", "+800 1234 5678 +882 345 678 90"),
    ("US", "Mobile ::: +1 650-253-0000 ::: (650) 253-0001 ::: 650.253.0002"),
    ("GB", "Work ::: 020 7946 0123 ::: +44 7400 123456"),
    ("DE", "Home ::: 030 123456 ::: +49 171 1234567 ::: 0171-1234567"),
    ("US", ""), ("US", "no numbers here"), ("US", "1"), ("US", "12"), ("US", "123 456"), ("US", "+"), ("US", "(((((("),
    ("US", "1" * 60), ("US", "1-" * 40), ("US", "(1) " * 20), ("US", "+1 650 253 0000" * 3),
    ("US", "650 253 0000\t650 253 0001"), ("US", "６５０－２５３－００００"), ("US", "650‐253‐0000"),
    ("US", "650 253 0000 ext 12345678901234567890123"), ("US", "650 253 0000 #12"), ("US", "650 253 0000 int 12"),
    ("US", "6502530000 extensión 12"), ("US", "6502530000 EXTN: 12"), ("US", "650 253 0000 доб 12"),
    ("US", "650 253 0000 anexo 12"), ("US", "650 253 0000 ｅｘｔ 12"), ("US", "650 253 0000..12"),
    ("US", "650-253-0000 -- 650-253-0001"), ("US", "650 253 0000 — 650 253 0001"), ("US", "650 253 0000. 650 253 0001"),
    ("US", "+1 650 253 0000/x12"), ("US", "650\\ x253 0000"), ("US", "1 2 3 4 5 6 7 8 9 0"),
    ("US", "Ph: 650-253-0000_"), ("US", "650-253-0000!!!"), ("US", "Ünïcödé650-253-0000"), ("US", "é650-253-0000"),
    ("US", "ж650-253-0000"), ("US", "650-253-0000ж"), ("US", "(650) 253-0000 (home) (work)"),
    ("US", "+1 650 253 0000 https://x.com/q?id=6502530000&t=12"), ("US", "Time 10:30-11:45, call 650 253 0000"),
]


def formats_of(number, region, rnd):
    """The number written in several ways."""
    nat = phonenumbers.format_number(number, PNF.NATIONAL)
    intl = phonenumbers.format_number(number, PNF.INTERNATIONAL)
    e164 = phonenumbers.format_number(number, PNF.E164)
    nsn = phonenumbers.national_significant_number(number)
    out = [nat, intl, e164, phonenumbers.format_number(number, PNF.RFC3966), nsn,
           nat.replace(" ", ""), intl.replace(" ", "-"), nat.replace(" ", "."),
           intl.replace(" ", "", 1)]
    # Regrouped: a space moved.
    digits = nsn
    cut = rnd.randint(1, max(1, len(digits) - 1))
    out.append(digits[:cut] + " " + digits[cut:])
    prefix = phonenumbers.ndd_prefix_for_region(region, True)
    if prefix:
        out.append(prefix + " " + digits)
    out.append(nat + " ext. " + str(rnd.randint(1, 9999)))
    out.append(intl + " x" + str(rnd.randint(1, 99)))
    idd = phonenumbers.PhoneMetadata.metadata_for_region(region).preferred_international_prefix or \
        phonenumbers.PhoneMetadata.metadata_for_region(region).international_prefix
    if idd and idd.isdigit():
        out.append(idd + " " + intl[1:])
    return out


def script_digits(s, digits):
    return "".join(digits[int(c)] if c.isdigit() and c.isascii() else c for c in s)


def texts():
    rnd = random.Random(27)
    out = []
    for region in sorted(phonenumbers.SUPPORTED_REGIONS):
        numbers = []
        for t in [phonenumbers.PhoneNumberType.FIXED_LINE, phonenumbers.PhoneNumberType.MOBILE,
                  phonenumbers.PhoneNumberType.TOLL_FREE]:
            n = phonenumbers.example_number_for_type(region, t)
            if n is not None:
                numbers.append(n)
        if not numbers:
            continue
        language = REGION_LANGUAGES.get(region) or rnd.choice(sorted(TEMPLATES))
        written = [w for n in numbers for w in formats_of(n, region, rnd)]
        # Every way of writing in a sentence of the region's language or another one.
        for w in written:
            lang = language if rnd.random() < 0.6 else rnd.choice(sorted(TEMPLATES))
            template = rnd.choice(TEMPLATES[lang])
            other = rnd.choice(written)
            text = template.replace("{n}", w).replace("{m}", other)
            if lang in SCRIPT_OF and rnd.random() < 0.5:
                text = script_digits(text, SCRIPT_OF[lang])
            out.append((region, text))
        # A contacts cell with several numbers.
        out.append((region, " ::: ".join(rnd.sample(written, min(3, len(written))))))
        # Searched without a default region, and with another region.
        out.append(("ZZ", rnd.choice(TEMPLATES["en"]).replace("{n}", written[1]).replace("{m}", written[0])))
        out.append((rnd.choice(sorted(phonenumbers.SUPPORTED_REGIONS)), "Tel " + written[0] + " / " + written[1]))
    out.extend(EDGE_CASES)
    return out


def e164_of(number):
    s = phonenumbers.format_number(number, PNF.E164)
    if number.extension:
        s += ";ext=" + number.extension
    return s


def matches(text, region, leniency):
    return [(m.start, m.end, m.raw_string, e164_of(m.number))
            for m in PhoneNumberMatcher(text, None if region == "ZZ" else region, leniency=leniency)]


def main():
    oc.check_version()
    cases = texts()
    text_rows = []
    match_rows = []
    alt_formats = pm._ALT_NUMBER_FORMATS
    for i, (region, text) in enumerate(cases):
        text_rows.append([str(i), region, oc.escape(text) if hasattr(oc, "escape") else escape(text)])
        for name, level in LENIENCIES:
            full = matches(text, region, level)
            pm._ALT_NUMBER_FORMATS = {}
            try:
                bare = matches(text, region, level)
            finally:
                pm._ALT_NUMBER_FORMATS = alt_formats
            for m in full:
                match_rows.append([str(i), name, str(m[0]), str(m[1]), escape(m[2]), m[3], "both" if m in bare else "full"])
            for m in bare:
                if m not in full:
                    match_rows.append([str(i), name, str(m[0]), str(m[1]), escape(m[2]), m[3], "noalt"])
    write("matcher_texts.tsv", ["id", "region", "text"], text_rows)
    write("matcher.tsv", ["id", "leniency", "start", "end", "raw", "e164", "oracle"], match_rows)


def escape(s):
    return s.replace("\\", "\\\\").replace("\t", "\\t").replace("\n", "\\n").replace("\r", "\\r")


def write(name, header, rows):
    path = os.path.join(oc.FIXTURES_DIR, name)
    with open(path, "w", encoding="utf-8", newline="\n") as f:
        f.write("\t".join(header) + "\n")
        for row in rows:
            f.write("\t".join(row) + "\n")
    print("wrote %s (%d rows)" % (os.path.relpath(path, oc.REPO_ROOT), len(rows)))


if __name__ == "__main__":
    main()
