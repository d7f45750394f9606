<?php
// Writes PHP's built-in functions, classes, interfaces, traits, enums and
// constants as seen by the running php-cli, one "kind name" a line, sorted.
// Run by gen.sh; the output is embedded by package resolve.
$out = [];
foreach (get_defined_functions()['internal'] as $f) { $out[] = "f " . $f; }
foreach (get_declared_classes() as $c) { if ((new ReflectionClass($c))->isInternal()) { $out[] = "c " . $c; } }
foreach (get_declared_interfaces() as $c) { if ((new ReflectionClass($c))->isInternal()) { $out[] = "c " . $c; } }
foreach (get_declared_traits() as $c) { if ((new ReflectionClass($c))->isInternal()) { $out[] = "c " . $c; } }
foreach (get_defined_constants(true) as $ext => $consts) {
    if ($ext === 'user') { continue; }
    foreach ($consts as $k => $v) { $out[] = "k " . $k; }
}
foreach (['true', 'false', 'null', 'TRUE', 'FALSE', 'NULL'] as $k) { $out[] = "k " . $k; }
$out = array_unique($out);
sort($out, SORT_STRING);
echo "# php " . PHP_VERSION . "; extensions: " . implode(' ', get_loaded_extensions()) . "\n";
echo implode("\n", $out), "\n";
