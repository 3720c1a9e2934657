"""Reading JSON-like data field by field: each value of the type meant and in its range, or a
`FieldError` that names the field by its path (`events[12][3]`, `config`, `winners[0]`).

Booleans are not integers here (JSON's `true` is not 1), and lists are JSON arrays (a tuple is
not accepted where a loaded document has a list).
"""

from __future__ import annotations

from typing import Any


class FieldError(ValueError):
    """Data that cannot be loaded: `path` names the bad field and the message says why, e.g.
    `corrupt state: events[12][3]: must be a space from 0 to 49, not 50`."""

    def __init__(self, what: str, path: str, why: str) -> None:
        super().__init__(f"{what}: {path}: {why}")
        self.what = what
        self.path = path
        self.why = why


def json_type(v: Any) -> str:
    """The JSON name of a value's type, for messages."""
    if v is None:
        return "null"
    if isinstance(v, bool):
        return "true" if v else "false"
    if isinstance(v, int):
        return "an integer"
    if isinstance(v, float):
        return "a number"
    if isinstance(v, str):
        return "a text"
    if isinstance(v, list | tuple):
        return "a list"
    if isinstance(v, dict):
        return "an object"
    return type(v).__name__


def is_int(v: Any) -> bool:
    """An integer that is not a boolean."""
    return v.__class__ is int or (isinstance(v, int) and not isinstance(v, bool))


def show(v: Any) -> str:
    """A value for a message: small integers as they are, anything else by its type."""
    return str(v) if is_int(v) and -(10**9) < v < 10**9 else json_type(v)


class Reader:
    """Reads the fields of one kind of document; every error starts with `what`
    ("corrupt state", "not a valid game record", …)."""

    __slots__ = ("what",)

    def __init__(self, what: str) -> None:
        self.what = what

    def fail(self, path: str, why: str) -> FieldError:
        return FieldError(self.what, path, why)

    def obj(self, v: Any, path: str, required: tuple[str, ...], optional: tuple[str, ...] = ()
            ) -> dict[str, Any]:  # fmt: skip
        """An object with every `required` key, perhaps some `optional` ones, and no other
        (`path` "" for the document itself)."""
        if not isinstance(v, dict):
            raise self.fail(path or "document", f"must be an object, not {json_type(v)}")
        for key in required:
            if key not in v:
                raise self.fail(f"{path}.{key}" if path else key, "missing")
        if len(v) > len(required):
            for key in v:
                if key not in required and key not in optional:
                    name = show_key(key)
                    raise self.fail(f"{path}.{name}" if path else name, "unknown key")
        return v

    def integer(self, v: Any, path: str, lo: int, hi: int, meaning: str = "") -> int:
        """An integer from `lo` to `hi`; `meaning` ("a space") says what it stands for."""
        if not is_int(v):
            raise self.fail(path, f"must be {meaning or 'an integer'}, not {json_type(v)}")
        if not lo <= v <= hi:
            raise self.fail(path, f"must be {meaning or 'an integer'} from {lo} to {hi}, "
                                  f"not {show(v)}")  # fmt: skip
        return int(v)

    def integers(
        self, v: Any, path: str, lo: int, hi: int, length: int | None = None, meaning: str = ""
    ) -> list[int]:
        """A list of integers from `lo` to `hi` (of `length` entries, if given)."""
        if v.__class__ is not list:
            raise self.fail(path, f"must be a list, not {json_type(v)}")
        if length is not None and len(v) != length:
            raise self.fail(path, f"must have {length} entries, not {len(v)}")
        if v and all(x.__class__ is int for x in v) and lo <= min(v) and max(v) <= hi:
            return list(v)  # the common case, checked at C speed
        return [self.integer(x, f"{path}[{i}]", lo, hi, meaning) for i, x in enumerate(v)]

    def flag(self, v: Any, path: str) -> bool:
        if not isinstance(v, bool):
            raise self.fail(path, f"must be true or false, not {json_type(v)}")
        return v

    def array(self, v: Any, path: str, length: int | None = None) -> list[Any]:
        if v.__class__ is not list:
            raise self.fail(path, f"must be a list, not {json_type(v)}")
        if length is not None and len(v) != length:
            raise self.fail(path, f"must have {length} entries, not {len(v)}")
        return v


def show_key(key: Any) -> str:
    text = repr(key)
    return text if len(text) <= 40 else text[:37] + "..."
