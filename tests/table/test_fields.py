"""The configuration's checks (table/fields.py) are values, as frozen
dataclasses would be, without @dataclass's cost at import."""

from __future__ import annotations

import pytest

from table.fields import Custom, Derived, Flag, OneOf, Pin, Seconds, Text, Whole


def test_a_check_is_equal_to_another_with_the_same_class_and_fields():
    assert Whole(0, 9) == Whole(0, 9)
    assert Whole(0, 9) != Whole(0, 8)
    assert Whole(0, 9) != Seconds(0, 9)           # the class counts
    assert Flag() == Flag() and Text() == Text(200) != Text(80)
    assert Pin() == Pin(optional=True) != Pin(optional=False)
    assert len({Whole(0, 9), Whole(0, 9), OneOf((1, 2)), OneOf((1, 2))}) == 2
    assert Whole(0, 9) != (0, 9)


def test_a_check_shows_its_fields():
    assert repr(Whole(0, 255)) == "Whole(lo=0, hi=255)"
    assert repr(OneOf(("i2c", "spi"))) == "OneOf(choices=('i2c', 'spi'))"
    assert repr(Derived("[table] seats")) == "Derived(where='[table] seats')"
    assert repr(Flag()) == "Flag()"


def test_a_check_does_not_change():
    check = Whole(0, 9)
    with pytest.raises(AttributeError, match="does not change"):
        check.lo = 3                                  # type: ignore[misc]
    with pytest.raises(AttributeError, match="does not change"):
        del check.hi                                  # type: ignore[misc]
    with pytest.raises(AttributeError):
        check.other = 1                               # type: ignore[attr-defined]
    assert check == Whole(0, 9)


def test_each_check_says_what_is_wrong_and_converts():
    assert Whole(0, 9).problem(10) == "must be 0..9, not 10"
    assert Whole(0, 9).problem(True).startswith("must be a whole number")
    assert Seconds(0.2, 10).convert(1) == 1.0 and Seconds(0.2, 10).problem(float("nan"))
    assert OneOf((0, 2)).problem(1) == "must be one of 0, 2, not 1"
    assert Flag().problem(1) == "must be true or false, not a whole number 1"
    assert Text(3).problem("abcd") == "is too long (4 characters; at most 3)"
    assert Pin().convert(False) is None and Pin(optional=False).problem(False)
    shout = Custom(lambda v: None if v.isupper() else "must shout", str.lower)
    assert shout.problem("no") == "must shout" and shout.convert("YES") == "yes"
    assert Derived("[table]").problem(1) == "is not set here: it comes from [table]"
