"""`python_class`: a class decorator that changes nothing, except in the compiled build.

The optional compiled build (`jamaica.compiled`) compiles this package with mypyc, which turns
each class into a native class unless it has a class decorator mypyc does not know. A native
class cannot subclass `int` (`Action`), and checks the types of its dataclass fields when built
(a `Config` of a wrong type would raise a `TypeError` before `__post_init__` says what is wrong):
those classes stay plain Python classes, in both builds alike.
"""

from __future__ import annotations

from typing import TypeVar

C = TypeVar("C")


def python_class(cls: type[C]) -> type[C]:
    """The class itself, unchanged (it stays a plain Python class in the compiled build)."""
    return cls
