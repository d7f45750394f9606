from shop.orders import order_total


def test_order_total():
    assert order_total([1, 2]) == 3.6
