<?php
namespace A\B;
use X\{Y, Z as W};
use function F\g;
use const C\K;
#[Attr(1)]
final class Foo extends Bar implements I, J {
    use T1, T2 { T1::m insteadof T2; T2::m as protected mm; }
    public function __construct(private readonly ?Repo $r, int|Foo $x) {}
    public function f(A&B $a, (A&B)|null $b): static {
        $x = new Foo(); $y = clone $x; $x?->m(1)->n; self::$p; static::C; parent::__construct();
        strlen($a); \strlen($a); namespace\h(); $f(); $o->$n(); $o->p->q(); K; \X\K; Foo::class;
        try {} catch (E1|E2 $e) {}
        if ($a instanceof Foo) { $a->z(); }
        foreach ($list as $k => $v) {}
        $c = strlen(...); $d = $o->m(...); $cl = function($q) use ($x): int { return 1; }; $af = fn($z) => $z + 1;
        /** @var Foo $q */
        $q = g();
        require_once __DIR__ . '/x.php'; include ABSPATH . WPINC . '/y.php'; require dirname(__FILE__) . '/z.php';
        array_map('trim', $a); array_map([$this, 'm'], $b); call_user_func([Foo::class, 'm']);
    }
}
interface I extends J, K {}
enum E: string implements I { case A = 'a'; }
