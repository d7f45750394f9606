<?php

namespace Acme\Shop;

final class AcmeShopBundle
{
}
