"""A ``schedule:`` cron string, checked against GitHub's syntax before it is written.

GitHub Actions reads POSIX cron: five fields (minute 0-59, hour 0-23, day of
month 1-31, month 1-12 or JAN-DEC, day of week 0-6 or SUN-SAT), each a ``*``,
a value, a range ``a-b``, either with a step ``/n``, or a comma list of
those ("Events that trigger workflows", ``schedule``). No ``@daily``, ``L``,
``W``, ``#`` or ``?`` (Quartz's, not POSIX's): actionlint refuses ``@daily``
and ``SUN#2`` too. A step after a single value (``5/15``) is refused as well:
POSIX cron has no such form, and readers disagree about what it means.
Hand-written rather than a cron library: the rule is one screen, and the
libraries on PyPI accept extensions (seconds, ``@hourly``, ``L``) GitHub does not.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from linkgate.errors import UsageError


@dataclass(frozen=True)
class _Field:
    what: str
    low: int
    high: int
    names: tuple[str, ...] = ()


_FIELDS = (
    _Field("minute", 0, 59),
    _Field("hour", 0, 23),
    _Field("day of the month", 1, 31),
    _Field("month", 1, 12, ("JAN", "FEB", "MAR", "APR", "MAY", "JUN", "JUL", "AUG", "SEP", "OCT", "NOV", "DEC")),
    _Field("day of the week", 0, 6, ("SUN", "MON", "TUE", "WED", "THU", "FRI", "SAT")),
)
_ITEM = re.compile(r"(?P<range>\*|(?P<a>[0-9]+|[A-Za-z]{3})(?:-(?P<b>[0-9]+|[A-Za-z]{3}))?)(?:/(?P<step>[0-9]+))?")
HINT = ("five fields: minute hour day-of-month month day-of-week, e.g. --trigger 'schedule:17 3 * * *' "
        "(each field *, N, A-B, */N or A-B/N, or a comma list; months JAN-DEC, days SUN-SAT)")


def _value(token: str, field: _Field) -> int | None:
    if token.isdigit():
        return int(token)
    upper = token.upper()
    return field.names.index(upper) + field.low if upper in field.names else None


def _field_problem(text: str, field: _Field) -> str | None:
    for item in text.split(","):
        m = _ITEM.fullmatch(item)
        if m is None:
            return f"{item!r} is not *, a value, a range or a step"
        values = [] if m["range"] == "*" else [m["a"]] + ([m["b"]] if m["b"] else [])
        numbers = []
        for token in values:
            number = _value(token, field)
            if number is None or not field.low <= number <= field.high:
                names = f" or {field.names[0]}-{field.names[-1]}" if field.names else ""
                return f"{token!r} is outside {field.low}-{field.high}{names}"
            numbers.append(number)
        if len(numbers) == 2 and numbers[0] > numbers[1]:
            return f"the range {item!r} runs backwards"
        if m["step"] is not None:
            if int(m["step"]) == 0:
                return f"{item!r} has a step of 0"
            if len(numbers) == 1:
                return f"{item!r} steps from a single value; write {m['a']}-{field.high}/{m['step']}"
    return None


def check(cron: str, source: str) -> str:
    """*cron* with its fields one space apart, when GitHub reads it as a
    schedule; UsageError naming the field otherwise."""
    fields = re.split(" +", cron.strip(" "))
    if len(fields) != 5 or any(not f for f in fields):
        raise UsageError(f"{source} {cron!r}: a cron schedule is five fields separated by spaces", hint=HINT)
    for text, field in zip(fields, _FIELDS):
        problem = _field_problem(text, field)
        if problem is not None:
            raise UsageError(f"{source} {cron!r}: the {field.what} field: {problem}", hint=HINT)
    return " ".join(fields)
