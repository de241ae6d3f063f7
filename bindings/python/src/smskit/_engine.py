"""`Engine`: the Python face of libsmskit's engine handle."""

from __future__ import annotations

import ctypes
import itertools
import threading
from array import array
from typing import Iterable, Iterator, List, Optional, Sequence, Union, overload

from . import _native as n
from ._types import (
    FICTIONAL,
    FORMATS,
    POSSIBILITIES,
    TYPES,
    CheckResult,
    Format,
    RenderedMessage,
    Segments,
    SMSKitError,
)

_lib = n.lib
_NAMES = {}


def _status_name(code: int) -> str:
    name = _NAMES.get(code)
    if name is None:
        name = _NAMES[code] = _lib.smskit_status_name(code).decode()
    return name


def _raise(code: int) -> None:
    raise SMSKitError(code, _status_name(code), _lib.smskit_status_message(code).decode())


def _utf8(text: Union[str, bytes]) -> bytes:
    # Lone surrogates go through as the bytes CESU would give: invalid UTF-8, reported as such.
    return text if isinstance(text, bytes) else text.encode("utf-8", "surrogatepass")


def _region(region: Optional[str]) -> Optional[bytes]:
    return None if region is None else region.encode("utf-8", "surrogatepass")


def _result(values: tuple) -> CheckResult:
    """A CheckResult from RESULT_STRUCT's unpacked fields."""
    error, country_code, possibility, type_, valid, fictional, e164_length, region, e164 = values
    if error:
        return CheckResult(_status_name(error), None, None, False, None, None, None, None)
    region_end = region.find(b"\0")
    return CheckResult(
        None,
        e164[:e164_length].decode("ascii"),
        POSSIBILITIES[possibility],
        bool(valid),
        TYPES[type_],
        region[: region_end if region_end >= 0 else 4].decode("ascii") or None,
        FICTIONAL[fictional],
        country_code,
    )


# Byte value -> column value, for whole columns through map() (C speed, no Python loop).
_EMPTY_TO_NONE = {"": None}
_NONZERO_TO_255 = bytes([0] + [255] * 255)
_TYPE_VALUES = tuple(TYPES[i].value if i < len(TYPES) else None for i in range(256))
_POSSIBILITY_VALUES = tuple(POSSIBILITIES[i].value if 0 < i < len(POSSIBILITIES) else None for i in range(256))
_FICTIONAL_VALUES = tuple(FICTIONAL[i].value if 0 < i < len(FICTIONAL) else None for i in range(256))

Inputs = Union[Sequence[str], Sequence[bytes], "numpy.ndarray", "pyarrow.Array", "pyarrow.ChunkedArray"]  # noqa: F821


class CheckResults(Sequence[CheckResult]):
    """The results of `Engine.check_many`: one per input, in order.

    A sequence of `CheckResult` made on access, over the C results (44 bytes each), so a million
    checks do not make a million objects unless asked. Whole columns come out in bulk:
    `column("e164")`, `to_arrow()`, `to_pandas()`, `to_numpy()`.
    """

    __slots__ = ("_raw", "_count")

    def __init__(self, raw: bytearray, count: int):
        self._raw = raw
        self._count = count

    def __len__(self) -> int:
        return self._count

    @overload
    def __getitem__(self, index: int) -> CheckResult: ...
    @overload
    def __getitem__(self, index: slice) -> List[CheckResult]: ...

    def __getitem__(self, index):
        if isinstance(index, slice):
            return [self[i] for i in range(*index.indices(self._count))]
        if index < 0:
            index += self._count
        if not 0 <= index < self._count:
            raise IndexError("CheckResults index out of range")
        return _result(n.RESULT_STRUCT.unpack_from(self._raw, index * n.RESULT_SIZE))

    def __iter__(self) -> Iterator[CheckResult]:
        return map(_result, n.RESULT_STRUCT.iter_unpack(self._raw))

    def to_list(self) -> List[CheckResult]:
        return list(self)

    def _bytes_column(self, offset: int) -> bytes:
        return bytes(self._raw[offset :: n.RESULT_SIZE])

    def _text_column(self, field: int) -> List[Optional[str]]:
        if self._count == 0:
            return []
        needed = ctypes.c_size_t(0)
        _lib.smskit_join_field(self._address(), self._count, field, b"\n", None, 0, ctypes.byref(needed))
        out = ctypes.create_string_buffer(needed.value)
        status = _lib.smskit_join_field(self._address(), self._count, field, b"\n", out, needed.value, ctypes.byref(needed))
        if status != n.OK:
            _raise(status)
        values = out.raw[: needed.value].decode("ascii").split("\n")
        values.pop()  # after the last separator
        return list(map(_EMPTY_TO_NONE.get, values, values))  # "" -> None, others as they are

    def _address(self) -> int:
        return ctypes.addressof(ctypes.c_char.from_buffer(self._raw))

    def column(self, name: str) -> list:
        """One field of every result, as a list: "e164", "region" (str or None), "is_valid"
        (bool), "error", "type", "possibility", "fictional" (names or None), "country_code"."""
        if name == "e164":
            return self._text_column(n.FIELD_E164)
        if name == "region":
            return self._text_column(n.FIELD_REGION)
        if name == "is_valid":
            return list(map(bool, self._bytes_column(10)))
        if name == "type":
            # Not parsed (error != 0) -> 255 -> None, whole columns at once: the error bytes
            # become a mask (0 or 255) OR-ed into the type bytes as one big integer.
            mask = self._bytes_column(0).translate(_NONZERO_TO_255)
            types = self._bytes_column(9)
            combined = (int.from_bytes(types, "little") | int.from_bytes(mask, "little")).to_bytes(len(types), "little")
            return list(map(_TYPE_VALUES.__getitem__, combined))
        if name == "possibility":
            return list(map(_POSSIBILITY_VALUES.__getitem__, self._bytes_column(8)))
        if name == "fictional":
            return list(map(_FICTIONAL_VALUES.__getitem__, self._bytes_column(11)))
        if name == "error":
            return [_status_name(e) if e else None for e in self._bytes_column(0)]
        if name == "country_code":
            return [r.country_code for r in self]
        raise KeyError(name)

    COLUMNS = ("error", "e164", "possibility", "is_valid", "type", "region", "fictional")

    def to_pydict(self) -> dict:
        return {name: self.column(name) for name in self.COLUMNS}

    def to_arrow(self):
        """A pyarrow.Table of the columns (needs pyarrow)."""
        import pyarrow as pa

        columns = self.to_pydict()
        schema = pa.schema([(name, pa.bool_() if name == "is_valid" else pa.string()) for name in self.COLUMNS])
        return pa.table(columns, schema=schema)

    def to_pandas(self):
        """A pandas.DataFrame of the columns (needs pandas)."""
        import pandas as pd

        return pd.DataFrame(self.to_pydict())

    def to_numpy(self):
        """A numpy structured array over the raw C results (needs numpy; no copy of the data)."""
        import numpy as np

        dtype = np.dtype(
            {
                "names": ["error", "country_code", "possibility", "type", "valid", "fictional", "e164_length", "region", "e164"],
                "formats": ["<i4", "<i4", "u1", "u1", "u1", "u1", "u1", "S4", "S24"],
                "offsets": [0, 4, 8, 9, 10, 11, 12, 16, 20],
                "itemsize": n.RESULT_SIZE,
            }
        )
        return np.frombuffer(self._raw, dtype=dtype, count=self._count)


class Engine:
    """An SMSKit engine: phone numbers, SMS segments and message templates.

    Immutable and safe to share between threads (the C calls release the GIL). Create one and
    keep it: creation loads the metadata and the template catalogs.

    >>> engine = Engine()
    >>> engine.check("(650) 253-0000", "US").e164
    '+16502530000'
    """

    def __init__(self) -> None:
        handle = _lib.smskit_engine_create()
        if not handle:
            raise MemoryError("smskit_engine_create failed")
        self._handle = ctypes.c_void_p(handle)
        self._local = threading.local()

    def close(self) -> None:
        """Frees the engine now (else when garbage collected). No call may be running."""
        handle, self._handle = getattr(self, "_handle", None), None
        if handle:
            _lib.smskit_engine_free(handle)

    def __del__(self) -> None:
        self.close()

    def __enter__(self) -> "Engine":
        return self

    def __exit__(self, *exc) -> None:
        self.close()

    def _engine(self) -> ctypes.c_void_p:
        if not self._handle:
            raise ValueError("the engine is closed")
        return self._handle

    # ---- numbers -----------------------------------------------------------------------------

    def check(self, number: Union[str, bytes], default_region: Optional[str] = None) -> CheckResult:
        """Checks one number: parse, possibility, validity, type, region, fictional, E.164.

        Bad input is never an exception: the result's `error` says what was wrong
        ("invalid_utf8", "not_a_number", "invalid_region"...).
        """
        out = getattr(self._local, "result", None)
        if out is None:
            out = self._local.result = n.CheckResultStruct()
        data = _utf8(number)
        _lib.smskit_check(self._engine(), data, len(data), _region(default_region), out)
        return _result(n.RESULT_STRUCT.unpack(bytes(out)))

    def check_many(
        self,
        numbers: Inputs,
        default_region: Optional[str] = None,
        regions: Optional[Sequence[Optional[str]]] = None,
    ) -> CheckResults:
        """Checks numbers in one C call: one result per input, in order, none dropped.

        `numbers`: a list (or any iterable) of str or bytes, a numpy array of strings, or a
        pyarrow string array (nulls are checked as empty inputs: not_a_number).
        `regions`: a per-input default region (None entries use `default_region`).
        Raises SMSKitError("invalid_region") when `default_region` is not a region.
        """
        engine = self._engine()
        packed = _pack(numbers)
        count = packed[-1]
        raw = bytearray(max(count, 1) * n.RESULT_SIZE)
        out = ctypes.addressof(ctypes.c_char.from_buffer(raw))
        region_array = None
        if regions is not None:
            if len(regions) != count:
                raise ValueError(f"{len(regions)} regions for {count} numbers")
            region_array, keep = _region_pointers(regions)
        shared = _region(default_region)
        if packed[0] == "split":
            _, data, count = packed
            status = _lib.smskit_check_split(engine, data, len(data), b"\n", count, _address(region_array), shared, out)
        else:
            _, data, offsets, count = packed
            status = _lib.smskit_check_packed(
                engine, data, len(data), offsets.buffer_info()[0] if count else None, count, _address(region_array), shared, out
            )
            del offsets  # kept alive through the call above
        if status != n.OK:
            _raise(status)
        del raw[count * n.RESULT_SIZE :]
        return CheckResults(raw, count)

    def format(
        self, number: Union[str, bytes], format: Union[Format, str] = Format.E164, default_region: Optional[str] = None
    ) -> str:
        """Parses `number` and writes it as E.164, international, national or RFC 3966.

        Raises SMSKitError when the number does not parse (its `name` is the parse error).
        """
        style = FORMATS[Format(format)]
        data = _utf8(number)
        return self._text_call(
            lambda buffer, capacity, length: _lib.smskit_format(
                self._engine(), data, len(data), _region(default_region), style, buffer, capacity, length
            )
        )[0]

    # ---- SMS -----------------------------------------------------------------------------------

    def segments(self, text: str) -> Segments:
        """How `text` goes over the air: encoding, parts and units (smart encoding on)."""
        data = _utf8(text)
        out = n.SegmentsResultStruct()
        status = _lib.smskit_segments(self._engine(), data, len(data), ctypes.byref(out))
        if status != n.OK:
            _raise(status)
        return Segments("gsm7" if out.encoding == 1 else "ucs2", out.segments, out.units, out.remaining, bool(out.exceeds_limit))

    def render(
        self, language: str, code: str, app_name: str, minutes: Optional[int] = None, message: Optional[str] = None
    ) -> RenderedMessage:
        """Renders a one-time-code SMS from the bundled templates.

        `message`: "verification_code" (default), "verification_code_expiry" (default when
        `minutes` is given), "login_code", "mfa_code". Unknown languages fall back.
        Raises SMSKitError: "invalid_code", "argument_too_long", "missing_argument"...
        """
        if minutes is not None and not 0 <= minutes <= 100_000:
            raise SMSKitError(2, "invalid_argument", "minutes must be between 0 and 100000")
        args = [_region(language), _region(code), _region(app_name)]
        if any(b"\0" in a for a in args):
            raise SMSKitError(2, "invalid_argument", "arguments must not contain NUL characters")
        segments = ctypes.c_int32(0)
        text, _ = self._text_call(
            lambda buffer, capacity, length: _lib.smskit_render(
                self._engine(), *args, -1 if minutes is None else minutes,
                _region(message), buffer, capacity, length, ctypes.byref(segments)
            ),
            capacity=512,
        )
        return RenderedMessage(text, segments.value)

    @staticmethod
    def _text_call(call, capacity: int = 64):
        """Runs a C function writing text to a buffer, once more with the size it asks for."""
        for _ in range(2):
            buffer = ctypes.create_string_buffer(capacity)
            length = ctypes.c_size_t(0)
            status = call(buffer, capacity, ctypes.byref(length))
            if status == n.OK:
                return buffer.raw[: length.value].decode("utf-8"), status
            if status != n.ERR_BUFFER_TOO_SMALL:
                _raise(status)
            capacity = length.value
        _raise(n.ERR_BUFFER_TOO_SMALL)


# Region C strings by region, made once per process and kept: a batch's per-input regions become
# an array of their addresses (8 bytes an input) instead of a ctypes object per input.
_REGION_BUFFERS: dict = {}
_REGION_LOCK = threading.Lock()


def _region_pointers(regions: Sequence[Optional[str]]):
    """(array of C string addresses, what keeps them alive)."""
    buffers = _REGION_BUFFERS
    try:
        return array("Q", [buffers[r] for r in regions]), None
    except (KeyError, TypeError):
        pass
    unique = set(regions)
    for r in unique:
        if r is not None and not isinstance(r, str):
            raise TypeError(f"check_many: regions must be str or None, not {type(r).__name__}")
    if len(buffers) + len(unique) > 10_000:
        # Not region codes (garbage cells): C strings for this call only, not kept.
        local = {r: ctypes.create_string_buffer(_region(r)) for r in unique if r is not None}
        return array("Q", [ctypes.addressof(local[r]) if r is not None else 0 for r in regions]), local
    with _REGION_LOCK:
        for r in unique:
            if r not in buffers:
                if r is None:
                    buffers[None] = 0
                else:
                    kept = ctypes.create_string_buffer(_region(r))
                    _KEPT.append(kept)
                    buffers[r] = ctypes.addressof(kept)
    return array("Q", [buffers[r] for r in regions]), None


_KEPT: list = []


def _address(pointers: Optional[array]):
    return pointers.buffer_info()[0] if pointers is not None and len(pointers) else None


def _pack(numbers: Inputs):
    """Inputs as one buffer: ("split", data, count) when joining them with newlines is exact,
    else ("packed", data, int64 offsets, count)."""
    module = type(numbers).__module__
    if module.startswith("pyarrow"):
        return _pack_arrow(numbers)
    if module == "numpy":
        numbers = numbers.tolist()
    elif not isinstance(numbers, (list, tuple)):
        numbers = list(numbers)
    count = len(numbers)
    if count == 0:
        return ("packed", b"", array("q", [0]), 0)
    first = numbers[0]
    if isinstance(first, str):
        try:
            joined = "\n".join(numbers)
        except TypeError:
            joined = None
        if joined is not None and joined.count("\n") == count - 1:
            return ("split", joined.encode("utf-8", "surrogatepass"), count)
    elif isinstance(first, bytes):
        try:
            joined = b"\n".join(numbers)
        except TypeError:
            joined = None
        if joined is not None and joined.count(b"\n") == count - 1:
            return ("split", joined, count)
    encoded = [_utf8(x) if isinstance(x, (str, bytes)) else _bad_item(x) for x in numbers]
    offsets = array("q", itertools.accumulate(map(len, encoded), initial=0))
    return ("packed", b"".join(encoded), offsets, count)


def _bad_item(item) -> bytes:
    if item is None:
        return b""
    raise TypeError(f"check_many: numbers must be str or bytes, not {type(item).__name__}")


def _pack_arrow(column):
    import pyarrow as pa

    if isinstance(column, pa.ChunkedArray):
        column = column.combine_chunks()
    if not (pa.types.is_string(column.type) or pa.types.is_large_string(column.type)
            or pa.types.is_binary(column.type) or pa.types.is_large_binary(column.type)):
        raise TypeError(f"check_many: an arrow array of strings, not {column.type}")
    if column.null_count:
        column = column.fill_null("" if pa.types.is_string(column.type) or pa.types.is_large_string(column.type) else b"")
    count = len(column)
    if count == 0:
        return ("packed", b"", array("q", [0]), 0)
    _, offsets_buffer, data_buffer = column.buffers()
    width = "q" if (pa.types.is_large_string(column.type) or pa.types.is_large_binary(column.type)) else "i"
    offsets = array(width)
    offsets.frombytes(memoryview(offsets_buffer)[column.offset * offsets.itemsize : (column.offset + count + 1) * offsets.itemsize])
    if width != "q":
        offsets = array("q", offsets)
    data = bytes(data_buffer) if data_buffer is not None else b""
    return ("packed", data, offsets, count)
