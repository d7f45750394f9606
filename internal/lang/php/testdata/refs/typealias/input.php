<?php
namespace App;

use Other\Shapes;

/**
 * PHPDoc type aliases name types, not classes.
 *
 * @psalm-type Mode = 'a'|'b'
 * @phpstan-type Row array{id: int, item: Item}
 * @psalm-type Rows = list<Row>
 * @psalm-type Handler = Item|Other
 * @psalm-type Shape = array{
 *     item: Item,
 *     size: int
 * }
 * @psalm-import-type Color from Shapes
 * @phpstan-import-type Size from Shapes as Dim
 */
class Settings
{
    /** @var Mode */
    public $mode;

    /** @psalm-var Rows */
    public $rows;

    /** @var Handler */
    public $handler;

    /**
     * @param Color $c
     * @param Dim $d
     * @return Item|Mode
     */
    public function set($c, $d)
    {
        $this->handler->run();
        return new Item();
    }
}

/** @var Mode $x outside the class, Mode is a class name */
$x = null;
