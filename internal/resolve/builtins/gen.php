<?php
// Writes PHP's built-in functions, classes, interfaces, traits, enums and
// constants as seen by the running php-cli, one "kind name" a line, sorted.
// Functions and methods whose (tentative) return type names classes also get
// a line "r function type" or "m Class::method type", the type written as a
// resolver descriptor (`\DateTime|\DateTimeImmutable`, `static`); every
// method of a built-in class, inherited ones included, has an "m" line.
// Run by gen.sh; the output is embedded by package resolve.

// desc renders the class alternatives of a return type; scalars, null and
// false are left out, so "" means the result is no object ragraf can type.
function desc(?ReflectionType $t, string $self): string {
    if ($t === null) { return ''; }
    $types = $t instanceof ReflectionNamedType ? [$t] : $t->getTypes();
    $out = [];
    foreach ($types as $u) {
        if (!$u instanceof ReflectionNamedType) { continue; }
        $n = $u->getName();
        if ($n === 'static') { $out[] = 'static'; continue; }
        if ($u->isBuiltin()) { continue; }
        $out[] = '\\' . (strtolower($n) === 'self' ? $self : $n);
    }
    return implode('|', $out);
}

function returns(ReflectionFunctionAbstract $f): ?ReflectionType {
    return $f->getReturnType() ?? ($f->hasTentativeReturnType() ? $f->getTentativeReturnType() : null);
}

$out = [];
foreach (get_defined_functions()['internal'] as $f) {
    $out[] = "f " . $f;
    if (($d = desc(returns(new ReflectionFunction($f)), '')) !== '') { $out[] = "r " . $f . " " . $d; }
}
$classes = array_merge(get_declared_classes(), get_declared_interfaces(), get_declared_traits());
foreach ($classes as $c) {
    $rc = new ReflectionClass($c);
    if (!$rc->isInternal()) { continue; }
    $out[] = "c " . $c;
    foreach ($rc->getMethods() as $m) {
        $d = desc(returns($m), $m->getDeclaringClass()->getName());
        $out[] = rtrim("m " . $c . "::" . $m->getName() . " " . $d);
    }
}
foreach (get_defined_constants(true) as $ext => $consts) {
    if ($ext === 'user') { continue; }
    foreach ($consts as $k => $v) { $out[] = "k " . $k; }
}
foreach (['true', 'false', 'null', 'TRUE', 'FALSE', 'NULL'] as $k) { $out[] = "k " . $k; }
$out = array_unique($out);
sort($out, SORT_STRING);
echo "# php " . PHP_VERSION . "; extensions: " . implode(' ', get_loaded_extensions()) . "\n";
echo implode("\n", $out), "\n";
