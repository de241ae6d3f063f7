"""The Python API over libsmskit: checks, batches in every input form, formats, segments,
rendering, versions and bad input (invalid UTF-8, NUL, huge, wrong types), threads."""

from __future__ import annotations

import subprocess
import threading
from concurrent.futures import ThreadPoolExecutor

import pytest

import smskit
from smskit import FictionalKind, Format, PhoneNumberType, Possibility, SMSKitError

CASES = [
    # input, default region, error, e164, type, region, fictional
    ("+16502530000", None, None, "+16502530000", "fixed_line_or_mobile", "US", None),
    ("(650) 253-0000", "US", None, "+16502530000", "fixed_line_or_mobile", "US", None),
    ("(650) 253-0000", "us", None, "+16502530000", "fixed_line_or_mobile", "US", None),
    ("(650) 253-0000", None, "invalid_country_code", None, None, None, None),
    ("(650) 253-0000", "ZZ", "invalid_country_code", None, None, None, None),
    ("+44 7400 123456", None, None, "+447400123456", "mobile", "GB", None),
    ("020 7946 0123", "GB", None, "+442079460123", "fixed_line", "GB", "reserved-for-fiction"),
    ("212-555-1234", "US", None, "+12125551234", "fixed_line_or_mobile", "US", "nanp-555-convention"),
    ("+800 1234 5678", None, None, "+80012345678", "toll_free", "001", None),
    ("＋１ 650 253 0000", None, None, "+16502530000", "fixed_line_or_mobile", "US", None),
    ("hello", "US", "not_a_number", None, None, None, None),
    ("", "US", "not_a_number", None, None, None, None),
    ("12345678901234567890123", "DE", "too_long", None, None, None, None),
    ("+1650\x002530000", None, "not_a_number", None, None, None, None),
    ("+1 650 253 0000\ud800", None, "invalid_utf8", None, None, None, None),  # lone surrogate
    (b"\xff\xfe 650 253 0000", "US", "invalid_utf8", None, None, None, None),
    ("1" * 70_000, "US", "line_too_long", None, None, None, None),
    ("(650) 253-0000", "USA", "invalid_region", None, None, None, None),
]


def expect(result: smskit.CheckResult, case) -> None:
    _, _, error, e164, type_, region, fictional = case
    assert (result.error, result.e164, result.type, result.region, result.fictional) == (error, e164, type_, region, fictional)
    assert result.ok == (error is None)
    assert result.is_valid == (error is None and type_ != "unknown")
    if error is None:
        assert isinstance(result.type, PhoneNumberType) and isinstance(result.possibility, Possibility)
        assert result.country_code == int(e164[1 : len(e164) - 1][:3]) or e164.startswith(f"+{result.country_code}")
    else:
        assert result.possibility is None and result.country_code is None


@pytest.mark.parametrize("case", CASES, ids=lambda c: repr(c[0])[:30] + "/" + str(c[1]))
def test_check(engine, case):
    expect(engine.check(case[0], case[1]), case)


def test_check_many_agrees_with_check_in_every_layout(engine):
    numbers = [c[0] if isinstance(c[0], str) else c[0].decode("latin-1") for c in CASES if isinstance(c[0], str)]
    regions = [c[1] for c in CASES if isinstance(c[0], str)]
    singles = [engine.check(x, r) for x, r in zip(numbers, regions)]
    assert list(engine.check_many(numbers, regions=regions)) == singles
    # A newline inside an input forces the offsets layout; results stay one per input.
    with_newline = numbers + ["+1 650\n253 0000"]
    results = engine.check_many(with_newline, regions=regions + ["US"])
    assert list(results)[:-1] == singles and results[-1].error == "not_a_number"
    assert len(results) == len(with_newline)
    # bytes inputs, tuples, generators.
    assert list(engine.check_many(tuple(x.encode("utf-8", "surrogatepass") for x in numbers), regions=regions)) == singles
    assert list(engine.check_many((x for x in numbers), regions=regions)) == singles


def test_check_many_columns(engine):
    results = engine.check_many(["+16502530000", "garbage", "020 7946 0123", "+80012345678"], default_region="GB")
    assert results.column("e164") == ["+16502530000", None, "+442079460123", "+80012345678"]
    assert results.column("region") == ["US", None, "GB", "001"]
    assert results.column("is_valid") == [True, False, True, True]
    assert results.column("type") == ["fixed_line_or_mobile", None, "fixed_line", "toll_free"]
    assert results.column("error") == [None, "not_a_number", None, None]
    assert results.column("fictional") == [None, None, "reserved-for-fiction", None]
    assert results.column("possibility") == ["is_possible", None, "is_possible", "is_possible"]
    assert results.column("country_code") == [1, None, 44, 800]
    assert results.to_pydict()["e164"] == results.column("e164")
    assert [r.e164 for r in results] == results.column("e164")
    assert results[-1] == results[3] and results[1:3] == [results[1], results[2]]
    with pytest.raises(IndexError):
        results[4]
    with pytest.raises(KeyError):
        results.column("nope")


def test_check_many_empty_and_errors(engine):
    assert len(engine.check_many([])) == 0
    assert engine.check_many([]).column("e164") == []
    with pytest.raises(SMSKitError) as raised:
        engine.check_many(["1"], default_region="not a region")
    assert raised.value.name == "invalid_region"
    with pytest.raises(TypeError):
        engine.check_many([1, 2])
    with pytest.raises(ValueError):
        engine.check_many(["1", "2"], regions=["US"])
    # None entries in a list are empty inputs.
    assert engine.check_many(["+16502530000", None]).column("error") == [None, "not_a_number"]


def test_numpy_input_and_output(engine):
    np = pytest.importorskip("numpy")
    numbers = np.array(["+16502530000", "garbage", "+447400123456"])
    results = engine.check_many(numbers)
    table = results.to_numpy()
    assert table["e164"].tolist() == [b"+16502530000", b"", b"+447400123456"]
    assert table["valid"].tolist() == [1, 0, 1]
    assert table["error"].tolist() == [0, 11, 0]
    assert results.column("e164") == [r.e164 for r in engine.check_many(numbers.tolist())]


def test_arrow_input_and_output(engine):
    pa = pytest.importorskip("pyarrow")
    values = ["x", "+16502530000", None, "(650) 253-0000", "+447400123456"]
    for array in (pa.array(values), pa.array(values, pa.large_string()), pa.chunked_array([values[:2], values[2:]])):
        sliced = array.slice(1)
        results = engine.check_many(sliced, default_region="US")
        assert results.column("e164") == ["+16502530000", None, "+16502530000", "+447400123456"]
    table = engine.check_many(pa.array(["garbage"])).to_arrow()
    assert table.schema.field("e164").type == pa.string()
    assert table.column("error").to_pylist() == ["not_a_number"]
    assert engine.check_many(pa.array([b"+16502530000"], pa.binary())).column("e164") == ["+16502530000"]
    with pytest.raises(TypeError):
        engine.check_many(pa.array([1, 2]))


@pytest.mark.parametrize(
    "style, expected",
    [
        (Format.E164, "+16502530000"),
        ("international", "+1 650-253-0000"),
        (Format.NATIONAL, "(650) 253-0000"),
        ("rfc3966", "tel:+1-650-253-0000"),
    ],
)
def test_format(engine, style, expected):
    assert engine.format("650.253.0000", style, "US") == expected


def test_format_errors(engine):
    with pytest.raises(SMSKitError) as raised:
        engine.format("garbage", "e164", "US")
    assert raised.value.name == "not_a_number" and raised.value.code == 11
    with pytest.raises(ValueError):
        engine.format("+16502530000", "pretty")
    with pytest.raises(SMSKitError) as raised:
        engine.format(b"\xff", "e164")
    assert raised.value.name == "invalid_utf8"
    # A buffer too small: the C call reports the size, the second call fits exactly.
    from smskit import _native

    calls = []

    def call(buffer, capacity, length):
        calls.append(capacity)
        return _native.lib.smskit_format(engine._engine(), b"+16502530000", 12, None, 3, buffer, capacity, length)

    assert engine._text_call(call, capacity=4) == ("tel:+1-650-253-0000", 0)
    assert calls == [4, 20]


def test_segments(engine):
    assert engine.segments("hello") == smskit.Segments("gsm7", 1, 5, 155, False)
    assert engine.segments("Привет").encoding == "ucs2"
    assert engine.segments("a" * 161).segments == 2
    assert engine.segments("").units == 0
    assert engine.segments("a" * 40_000).exceeds_limit
    with pytest.raises(SMSKitError) as raised:
        engine.segments("x\ud800")
    assert raised.value.name == "invalid_utf8"
    with pytest.raises(SMSKitError) as raised:
        engine.segments("a" * (1 << 20 + 1))
    assert raised.value.name == "line_too_long"


def test_render(engine):
    message = engine.render("en", "123456", "Acme")
    assert "123456" in message.text and "Acme" in message.text and message.segments == 1
    german = engine.render("de-AT", "042917", "Acme", minutes=10)
    assert "042917" in german.text and "10" in german.text
    assert "042917" in engine.render("pt_BR", "042917", "Acme", message="login_code").text
    assert engine.render("xx", "1", "Acme").text  # falls back
    for kwargs, name in [
        (dict(code="12 34"), "invalid_code"),
        (dict(app_name="A" * 100), "argument_too_long"),
        (dict(message="nope"), "unknown_message"),
        (dict(message="verification_code_expiry"), "missing_argument"),
        (dict(minutes=-5), "invalid_argument"),
        (dict(code="1\x002"), "invalid_argument"),
        (dict(app_name="Ac\udc80me"), "invalid_utf8"),
    ]:
        arguments = dict(language="en", code="1234", app_name="Acme") | kwargs
        with pytest.raises(SMSKitError) as raised:
            engine.render(**arguments)
        assert raised.value.name == name, kwargs


def test_versions(cli):
    assert smskit.API_VERSION == 1
    assert smskit.metadata_version() == "9.0.43"
    lines = subprocess.run([cli, "--version"], capture_output=True, text=True, check=True).stdout.splitlines()
    assert lines[0] == f"smskit {smskit.version()}"
    # The package metadata spells the version by hand; the loaded library's is the one home.
    assert smskit.__version__ == smskit.version()
    assert smskit.metadata_version() in lines[1]


def test_threads_share_one_engine(engine):
    numbers = [c[0] for c in CASES if isinstance(c[0], str)] * 50
    expected = list(engine.check_many(numbers, default_region="GB"))
    barrier = threading.Barrier(8)

    def work(_):
        barrier.wait()
        for _ in range(20):
            assert list(engine.check_many(numbers, default_region="GB")) == expected
            assert engine.check("+447400123456").e164 == "+447400123456"
            assert "4242" in engine.render("fr", "4242", "Acme").text
        return True

    with ThreadPoolExecutor(8) as pool:
        assert all(pool.map(work, range(8)))


def test_closed_engine():
    engine = smskit.Engine()
    engine.close()
    engine.close()
    with pytest.raises(ValueError):
        engine.check("+16502530000")
    with smskit.Engine() as scoped:
        assert scoped.check("+16502530000").ok
