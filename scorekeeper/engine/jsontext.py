"""JSON read safely: the one loader of records, seasons and evaluator lines.

Whatever the text, ``load_json`` returns plain JSON values or raises JSONTextError
with one clear sentence, in time that grows linearly with the text: no RecursionError
from deep nesting, no ValueError from an integer of 5,000 digits, no infinities, no
NUL or lone surrogate (``"\\ud800"``) that a database or an encoder would choke on.

>>> load_json('{"players": ["Anna", "Ben"], "stake": "0.05"}')
{'players': ['Anna', 'Ben'], 'stake': '0.05'}
>>> load_json('[' * 100 + ']' * 100)
Traceback (most recent call last):
...
scorekeeper.engine.jsontext.JSONTextError: the JSON nests deeper than 32 levels
>>> load_json('{"stake": 1e400}')
Traceback (most recent call last):
...
scorekeeper.engine.jsontext.JSONTextError: the number 1e400 is too large
>>> load_json('["An\\\\u0000na"]')
Traceback (most recent call last):
...
scorekeeper.engine.jsontext.JSONTextError: the text holds a NUL character (\\u0000): remove it
"""

from __future__ import annotations

import json
import math
from typing import Any

from .bounds import MAX_JSON_DEPTH, MAX_NUMBER_DIGITS, MAX_RECORD_BYTES


class JSONTextError(ValueError):
    """Text that is not JSON a record can be read from; ``code`` and ``params`` let a
    user interface word the message in its own language."""

    def __init__(self, code: str, message: str, **params: Any):
        super().__init__(message)
        self.code, self.params = code, params


class _NumberError(ValueError):
    def __init__(self, code: str, message: str, literal: str):
        super().__init__(message)
        self.code, self.literal = code, literal


def _literal(text: str) -> str:
    return text if len(text) <= 20 else f"{text[:12]}… ({len(text)} characters)"


def _int(text: str) -> int:
    # int() itself refuses more than 4,300 digits with a ValueError, after quadratic work.
    if len(text) > MAX_NUMBER_DIGITS:
        raise _NumberError("number_too_long", "too long", text)
    return int(text)


def _float(text: str) -> float:
    if len(text) > MAX_NUMBER_DIGITS:
        raise _NumberError("number_too_long", "too long", text)
    number = float(text)
    if not math.isfinite(number):  # 1e400
        raise _NumberError("number_too_large", "too large", text)
    return number


def _constant(text: str) -> Any:
    # json accepts NaN, Infinity and -Infinity, which are not JSON.
    raise _NumberError("not_a_number", "not a number", text)


def load_json(text: str | bytes, *, limit: int = MAX_RECORD_BYTES, what: str = "text") -> Any:
    """The JSON value of ``text`` (UTF-8 bytes or text, a byte order mark allowed),
    refused with JSONTextError when it is larger than ``limit`` bytes, broken, too deep,
    or holds a number or a character nothing could keep."""
    if isinstance(text, bytes):
        if len(text) > limit:
            raise _too_large(what, limit)
        try:
            text = text.decode("utf-8-sig")
        except UnicodeDecodeError as error:
            raise JSONTextError(
                "not_utf8",
                f"the {what} is not UTF-8 text (byte {error.start + 1})",
                what=what,
                position=error.start + 1,
            ) from None
    text = text.removeprefix("\ufeff")
    # Characters first (cheap); bytes only where the characters come close.
    if len(text) > limit or (
        len(text) * 4 > limit and len(text.encode("utf-8", "surrogatepass")) > limit
    ):
        raise _too_large(what, limit)
    try:
        data = json.loads(text, parse_int=_int, parse_float=_float, parse_constant=_constant)
    except json.JSONDecodeError as error:
        raise JSONTextError(
            "broken",
            f"broken JSON at line {error.lineno} column {error.colno}: {error.msg}",
            line=error.lineno,
            column=error.colno,
            reason=error.msg,
        ) from None
    except RecursionError:
        raise _too_deep() from None
    except _NumberError as error:
        literal = _literal(error.literal)
        raise JSONTextError(
            error.code, f"the number {literal} is {error}", number=literal
        ) from None
    _check(data)
    return data


def _too_large(what: str, limit: int) -> JSONTextError:
    return JSONTextError(
        "too_large",
        f"the {what} is larger than {limit:,} bytes",
        what=what,
        limit=limit,
    )


def _too_deep() -> JSONTextError:
    return JSONTextError(
        "too_deep", f"the JSON nests deeper than {MAX_JSON_DEPTH} levels", depth=MAX_JSON_DEPTH
    )


def _check(data: Any) -> None:
    """Walk the values without recursion: the depth, and every text's characters."""
    stack: list[tuple[Any, int]] = [(data, 1)]
    while stack:
        value, depth = stack.pop()
        if isinstance(value, str):
            _check_text(value)
        elif isinstance(value, list | dict):
            if depth > MAX_JSON_DEPTH:
                raise _too_deep()
            if isinstance(value, dict):
                for key in value:
                    _check_text(key)
                items = value.values()
            else:
                items = value
            stack.extend((item, depth + 1) for item in items)


def _check_text(text: str) -> None:
    if "\x00" in text:
        raise JSONTextError("nul", "the text holds a NUL character (\\u0000): remove it")
    if not text.isascii():
        try:
            text.encode("utf-8")
        except UnicodeEncodeError as error:
            code = f"\\u{ord(text[error.start]):04x}"
            raise JSONTextError(
                "bad_unicode",
                f"the text holds a lone surrogate ({code}), which is not a character",
                character=code,
            ) from None
