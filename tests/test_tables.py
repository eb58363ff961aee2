"""Reading typed cells (``xlcircuit.workbook.tables``): what is a number, what is refused."""

from __future__ import annotations

import pytest

from xlcircuit.rules.errors import InvalidInput
from xlcircuit.workbook.cells import as_number, as_positive_int


@pytest.mark.parametrize("typed, number", [(3, 3.0), (2.5, 2.5), ("3,5", 3.5), (" 1 200,5 ", 1200.5), (None, None)])
def test_numbers_as_typed(typed, number):
    assert as_number(typed) == number


@pytest.mark.parametrize("typed", ["nan", "inf", "-Infinity", "1e400", float("nan"), float("inf"), True, "douze"])
def test_what_is_not_a_finite_number_is_refused(typed):
    with pytest.raises(InvalidInput, match="nombre attendu"):
        as_number(typed)


@pytest.mark.parametrize("typed", [1e300, "1e300", 100_001])
def test_a_huge_place_is_refused_not_computed(typed):
    with pytest.raises(InvalidInput, match="place attendue : un entier de 1 à 100000"):
        as_positive_int(typed)
    assert as_positive_int(100_000) == 100_000
