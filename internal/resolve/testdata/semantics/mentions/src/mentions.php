<?php
namespace Men;

function helper() {}

class Widget
{
    const LIMIT = 3;
    public $title;

    /**
     * Renders the widget; in prose, @see helper() is no tag.
     *
     * @see Widget::render()
     * @see helper()
     * @see https://example.org/docs
     */
    public function render() {}

    public function register()
    {
        /**
         * Filters the widget.
         *
         * @param Widget    $widget The widget.
         * @param null|false|Widget[] $all All of them.
         */
        $cb = array($this, 'render');
        $other = [Widget::class, 'render'];
        $pair = ['title', 'render'];
        $ok = function_exists('Men\helper');
        call_user_func('Men\helper');
        remove_action('hook', 'Men\helper');
        has_filter('hook', [$this, 'render']);
        return apply_filters('hook', $cb);
    }
}

/**
 * @global Widget $widget The current widget.
 * @see Widget::LIMIT
 * @see Widget::$title
 * @see Widget
 * @see NotAClass
 */
function current_widget()
{
    global $widget;
    return $widget;
}

/**
 * @method static string createToken(\Men\Widget $user, int $ttl = 60)
 * @method void reset(Widget ...$all)
 */
class Broker
{
    /**
     * @psalm-return array{array<int, string>, string, Widget[]}
     * @uses helper()
     * @uses Widget
     */
    public function report(): array
    {
        return [];
    }

    const MODE_A = 1;

    /** @param self::MODE_A|static::MODE_* $mode */
    public function mode(int $mode): int
    {
        return $mode;
    }
}

/**
 * Class constants as literal types name the constants.
 *
 * @psalm-param Widget::LIMIT|Widget::MISSING|Widget::L* $limit
 */
function limited(int $limit): int
{
    return $limit;
}
