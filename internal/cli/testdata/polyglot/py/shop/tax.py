RATE = 0.2


def with_tax(amount):
    """Adds the tax to an amount."""
    return amount * (1 + RATE)


class Invoice:
    """An invoice of one order."""

    def __init__(self, amount):
        self.amount = amount

    def total(self):
        return with_tax(self.amount)
