<?php
// classes.php indexes the classes under a root with PHP's tokenizer, for the
// truth scripts: classIndex() gives each class's parent and traits, its
// methods and its declared name (all keyed by lower-case qualified name);
// declaring() finds the class that declares a method, walking traits and
// parents. Files under vendor/, tests/ and .ragraf/ are left out.

function classIndex(string $root): array {
$parents = []; $methods = []; $names = [];
$it = new RecursiveIteratorIterator(new RecursiveDirectoryIterator($root, FilesystemIterator::SKIP_DOTS));
foreach ($it as $f) {
    $p = $f->getPathname();
    if (!str_ends_with($p, '.php') || str_contains($p, '/vendor/') || str_contains($p, '/.ragraf/') || str_contains($p, '/tests/') || str_contains($p, '/node_modules/')) { continue; }
    $t = PhpToken::tokenize(file_get_contents($p));
    $ns = ''; $uses = []; $depth = 0; $cls = null; $clsDepth = -1;
    $sig = function (int $i, int $dir) use ($t) {
        for ($i += $dir; $i >= 0 && $i < count($t); $i += $dir) {
            if (!in_array($t[$i]->id, [T_WHITESPACE, T_COMMENT, T_DOC_COMMENT], true)) { return $i; }
        }
        return -1;
    };
    $resolve = function (string $n) use (&$ns, &$uses): string {
        if ($n[0] === '\\') { return strtolower(substr($n, 1)); }
        $first = strtolower(explode('\\', $n)[0]);
        if (isset($uses[$first])) { return strtolower($uses[$first] . substr($n, strlen($first))); }
        return strtolower(($ns === '' ? '' : $ns . '\\') . $n);
    };
    for ($i = 0; $i < count($t); $i++) {
        $x = $t[$i];
        if ($x->text === '{' || $x->id === T_CURLY_OPEN || $x->id === T_DOLLAR_OPEN_CURLY_BRACES) { $depth++; continue; }
        if ($x->text === '}') { $depth--; if ($cls !== null && $depth < $clsDepth) { $cls = null; } continue; }
        if ($x->id === T_NAMESPACE && $depth === 0) { $q = $sig($i, 1); $ns = $t[$q]->text; continue; }
        if ($x->id === T_USE && $depth === 0) {
            // use A\B, C as D;   use A\{B, C as D};
            $group = '';
            for ($q = $sig($i, 1); $q >= 0 && $t[$q]->text !== ';'; $q = $sig($q, 1)) {
                if (!in_array($t[$q]->id, [T_NAME_QUALIFIED, T_NAME_FULLY_QUALIFIED, T_STRING], true)) { continue; }
                $r = $sig($q, 1);
                if ($t[$r]->id === T_NS_SEPARATOR) { $group = ltrim($t[$q]->text, '\\') . '\\'; $q = $r; continue; }
                $full = $group . ltrim($t[$q]->text, '\\');
                $alias = substr($full, strrpos('\\' . $full, '\\'));
                if ($t[$r]->id === T_AS) { $q = $sig($r, 1); $alias = $t[$q]->text; }
                $uses[strtolower($alias)] = $full;
            }
            continue;
        }
        if (($x->id === T_CLASS || $x->id === T_TRAIT) && $cls === null) {
            $p0 = $sig($i, -1);
            if ($p0 >= 0 && in_array($t[$p0]->id, [T_DOUBLE_COLON, T_NEW], true)) { continue; }
            $q = $sig($i, 1);
            if ($t[$q]->id !== T_STRING) { continue; }
            $cls = strtolower(($ns === '' ? '' : $ns . '\\') . $t[$q]->text);
            $names[$cls] = ($ns === '' ? '' : $ns . '\\') . $t[$q]->text;
            $clsDepth = $depth + 1;
            $methods[$cls] ??= [];
            $r = $sig($q, 1);
            if ($t[$r]->id === T_EXTENDS) { $parents[$cls] = $resolve($t[$sig($r, 1)]->text); }
            continue;
        }
        if ($x->id === T_USE && $cls !== null && $depth === $clsDepth) { // trait use A, B;
            for ($q = $sig($i, 1); $q >= 0 && $t[$q]->text !== ';' && $t[$q]->text !== '{'; $q = $sig($q, 1)) {
                if ($t[$q]->text !== ',') { $parents[$cls . '#traits'][] = $resolve($t[$q]->text); }
            }
            continue;
        }
        if ($x->id === T_FUNCTION && $cls !== null && $depth === $clsDepth) {
            $q = $sig($i, 1);
            if ($t[$q]->text === '&') { $q = $sig($q, 1); }
            $methods[$cls][strtolower($t[$q]->text)] = true;
        }
    }
}

return [$parents, $methods, $names];
}

function declaring(string $cls, string $m, array $parents, array $methods, int $depth = 0): ?string {
    if ($depth > 16) { return null; }
    if (isset($methods[$cls][strtolower($m)])) { return $cls; }
    foreach ($parents[$cls . '#traits'] ?? [] as $tr) {
        if ($r = declaring($tr, $m, $parents, $methods, $depth + 1)) { return $r; }
    }
    if (isset($parents[$cls])) { return declaring($parents[$cls], $m, $parents, $methods, $depth + 1); }
    return null;
}

