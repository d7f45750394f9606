<?php
// A variable documented as class-string<T> holds the name of T or of a
// subclass: static calls and class constants through it reach T's.
namespace Plugins;

interface Transformation
{
    const KIND = 'text';

    public static function getName(): string;
}

final class Upper implements Transformation
{
    public static function getName(): string
    {
        return 'upper';
    }
}

final class Registry
{
    /** @var list<class-string<Transformation>> */
    private array $classes = [Upper::class];

    public function name(string $file): string
    {
        /** @psalm-var class-string<Transformation> $class */
        $class = 'Plugins\\' . $file;
        if (class_exists($class)) {
            return $class::getName() . $class::KIND;
        }
        return '';
    }

    /** @param class-string<Transformation> $class */
    public function named(string $class): string
    {
        return $class::getName();
    }

    public function all(): array
    {
        $names = [];
        foreach ($this->classes as $c) {
            $names[] = $c::getName();
        }
        return $names;
    }
}
