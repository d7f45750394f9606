from .tax import with_tax, Invoice


def order_total(amounts):
    return with_tax(sum(amounts))


def invoice_for(amount):
    inv = Invoice(amount)
    return inv.total()
