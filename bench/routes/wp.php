<?php
// wp.php lists the handlers of WordPress entry points using PHP's own
// tokenizer, as a truth for ragraf's handler linking that shares no code or
// logic with it (bench/routes/main.go compares the two).
//
// Usage: php wp.php ROOT
//
// It prints one line per handler, tab-separated:
//
//   kind  path:line:role  target
//
// kind is rest (a 'callback' or 'permission_callback' of a
// register_rest_route call) or ajax (the callback of add_action('wp_ajax_*'),
// 'wp_ajax_nopriv_*', 'admin_post_*', 'admin_post_nopriv_*', the hook written
// as a literal or as the variable of a foreach over literal names); line is the
// line where the callback value starts; role is callback or permission;
// target is Class::method (the class that declares the method, found by
// walking `extends` through every class of ROOT), a function name,
// "closure", or "dynamic:EXPR" when the callback is built at run time.
// Class names are compared case-insensitively by the reader.

$root = rtrim($argv[1] ?? '.', '/');
$files = [];
$it = new RecursiveIteratorIterator(new RecursiveDirectoryIterator($root, FilesystemIterator::SKIP_DOTS));
foreach ($it as $f) {
    if ($f->isFile() && str_ends_with($f->getFilename(), '.php') && !str_contains($f->getPathname(), '/.ragraf/')) {
        $files[] = $f->getPathname();
    }
}
sort($files);

$parents = [];  // lower class => lower parent
$methods = [];  // lower class => [lower method => true]
$names = [];    // lower class => declared name
$propNew = [];  // lower class => [prop => lower class instantiated into it]
$found = [];    // [kind, path, line, role, class or '', name, raw]

function sig(array $t, int $i, int $dir): int {
    for ($i += $dir; $i >= 0 && $i < count($t); $i += $dir) {
        if (!in_array($t[$i]->id, [T_WHITESPACE, T_COMMENT, T_DOC_COMMENT], true)) {
            return $i;
        }
    }
    return -1;
}

function unquote(string $s): string {
    return stripcslashes(substr($s, 1, -1));
}

// value reads the callable starting at token $i (up to the `,` or closing
// bracket at its own depth) and returns [class-or-'', name, raw].
function value(array $t, int $i, ?string $cls, array $propNewOfCls): array {
    $depth = 0;
    $v = [];
    for ($j = $i; $j < count($t); $j++) {
        $x = $t[$j]->text;
        if ($x === '(' || $x === '[') { $depth++; }
        if ($x === ')' || $x === ']') { if ($depth === 0) { break; } $depth--; }
        if ($x === ',' && $depth === 0) { break; }
        if (!in_array($t[$j]->id, [T_WHITESPACE, T_COMMENT, T_DOC_COMMENT], true)) { $v[] = $t[$j]; }
    }
    $raw = implode('', array_map(fn($k) => $k->text, $v));
    if (!$v) { return ['', 'dynamic:', $raw]; }
    if ($v[0]->id === T_FUNCTION || $v[0]->id === T_FN || ($v[0]->id === T_STATIC && isset($v[1]) && in_array($v[1]->id, [T_FUNCTION, T_FN], true))) {
        return ['', 'closure', $raw];
    }
    if (count($v) === 1 && $v[0]->id === T_CONSTANT_ENCAPSED_STRING) {
        $s = ltrim(unquote($v[0]->text), '\\');
        if (str_contains($s, '::')) { [$c, $m] = explode('::', $s, 2); return [$c, $m, $raw]; }
        return ['', $s, $raw];
    }
    // array( A, 'm' ) or [ A, 'm' ]
    $inner = null;
    if ($v[0]->id === T_ARRAY && $v[1]->text === '(' && end($v)->text === ')') { $inner = array_slice($v, 2, -1); }
    if ($v[0]->text === '[' && end($v)->text === ']') { $inner = array_slice($v, 1, -1); }
    if ($inner !== null) {
        $comma = -1;
        foreach ($inner as $k => $tok) { if ($tok->text === ',') { $comma = $k; break; } }
        $obj = array_slice($inner, 0, $comma);
        $rest = array_slice($inner, $comma + 1);
        if ($comma > 0 && count($rest) >= 1 && $rest[0]->id === T_CONSTANT_ENCAPSED_STRING) {
            $m = unquote($rest[0]->text);
            $o = implode('', array_map(fn($k) => $k->text, $obj));
            if ($o === '$this' && $cls !== null) { return [$cls, $m, $raw]; }
            if (count($obj) === 1 && $obj[0]->id === T_CONSTANT_ENCAPSED_STRING) { return [ltrim(unquote($obj[0]->text), '\\'), $m, $raw]; }
            if (preg_match('/^\$this->(\w+)$/', $o, $mm) && isset($propNewOfCls[$mm[1]])) { return [$propNewOfCls[$mm[1]], $m, $raw]; }
            if (($o === '__CLASS__' || $o === 'self::class' || $o === 'static::class') && $cls !== null) { return [$cls, $m, $raw]; }
        }
    }
    return ['', 'dynamic:' . $raw, $raw];
}

// loopHooks returns the names a variable takes in the nearest enclosing
// `foreach ( array( 'a', 'b' ) as $var )` before token $at, when the list
// holds only string literals; otherwise none.
function loopHooks(array $t, int $at, string $var): array {
    for ($i = $at - 1; $i >= 0 && $i > $at - 400; $i--) {
        if ($t[$i]->id !== T_FOREACH) { continue; }
        $o = sig($t, $i, 1);
        $a = sig($t, $o, 1);
        if ($t[$a]->id === T_ARRAY) { $a = sig($t, $a, 1); }
        if (!in_array($t[$a]->text, ['(', '['], true)) { return []; }
        $names = [];
        for ($j = sig($t, $a, 1); $j >= 0 && !in_array($t[$j]->text, [')', ']'], true); $j = sig($t, $j, 1)) {
            if ($t[$j]->id === T_CONSTANT_ENCAPSED_STRING) { $names[] = unquote($t[$j]->text); }
            elseif ($t[$j]->text !== ',') { return []; }
        }
        $as = sig($t, $j, 1);
        $v = sig($t, $as, 1);
        return ($t[$as]->id === T_AS && $t[$v]->text === $var) ? $names : [];
    }
    return [];
}

foreach ($files as $file) {
    $rel = substr($file, strlen($root) + 1);
    $t = PhpToken::tokenize(file_get_contents($file));
    $n = count($t);
    $depth = 0;
    $classes = []; // stack of [lower name, body depth]
    $pendingClass = null;
    for ($i = 0; $i < $n; $i++) {
        $tok = $t[$i];
        if ($tok->text === '{' || $tok->id === T_CURLY_OPEN || $tok->id === T_DOLLAR_OPEN_CURLY_BRACES) {
            $depth++;
            if ($pendingClass !== null) { $classes[] = [$pendingClass, $depth]; $pendingClass = null; }
            continue;
        }
        if ($tok->text === '}') {
            if ($classes && end($classes)[1] === $depth) { array_pop($classes); }
            $depth--;
            continue;
        }
        $cls = $classes ? end($classes)[0] : null;
        if ($tok->id === T_CLASS || $tok->id === T_TRAIT) {
            $p = sig($t, $i, -1);
            if ($p >= 0 && in_array($t[$p]->id, [T_DOUBLE_COLON, T_NEW], true)) { continue; }
            $q = sig($t, $i, 1);
            if ($q < 0 || $t[$q]->id !== T_STRING) { continue; }
            $name = strtolower($t[$q]->text);
            $names[$name] = $t[$q]->text;
            $methods[$name] ??= [];
            $r = sig($t, $q, 1);
            if ($r >= 0 && $t[$r]->id === T_EXTENDS) {
                $parents[$name] = strtolower(ltrim($t[sig($t, $r, 1)]->text, '\\'));
            }
            $pendingClass = $name;
            continue;
        }
        if ($tok->id === T_FUNCTION && $cls !== null && end($classes)[1] === $depth) {
            $q = sig($t, $i, 1);
            if ($q >= 0 && $t[$q]->text === '&') { $q = sig($t, $q, 1); }
            if ($q >= 0) { $methods[$cls][strtolower($t[$q]->text)] = true; }
            continue;
        }
        // $this->p = new X
        if ($tok->id === T_VARIABLE && $tok->text === '$this' && $cls !== null) {
            $a = sig($t, $i, 1);
            if ($a >= 0 && $t[$a]->id === T_OBJECT_OPERATOR) {
                $b = sig($t, $a, 1); $c = sig($t, $b, 1); $d = sig($t, $c, 1);
                if ($c >= 0 && $t[$c]->text === '=' && $d >= 0 && $t[$d]->id === T_NEW) {
                    $propNew[$cls][$t[$b]->text] = strtolower(ltrim($t[sig($t, $d, 1)]->text, '\\'));
                }
            }
        }
        if ($tok->id !== T_STRING) { continue; }
        $fn = strtolower($tok->text);
        if ($fn !== 'register_rest_route' && $fn !== 'add_action') { continue; }
        $p = sig($t, $i, -1);
        if ($p >= 0 && in_array($t[$p]->id, [T_FUNCTION, T_OBJECT_OPERATOR, T_DOUBLE_COLON, T_NULLSAFE_OBJECT_OPERATOR], true)) { continue; }
        $open = sig($t, $i, 1);
        if ($open < 0 || $t[$open]->text !== '(') { continue; }
        if ($fn === 'add_action') {
            $h = sig($t, $open, 1);
            if ($t[$h]->id === T_CONSTANT_ENCAPSED_STRING) {
                $hooks = [unquote($t[$h]->text)];
            } elseif ($t[$h]->id === T_VARIABLE) {
                $hooks = loopHooks($t, $i, $t[$h]->text); // foreach over a list of literal names
            } else {
                continue; // hook built at run time
            }
            $comma = sig($t, $h, 1);
            if ($t[$comma]->text !== ',') { continue; }
            $vi = sig($t, $comma, 1);
            foreach ($hooks as $hook) {
                if (!preg_match('/^(wp_ajax_|admin_post_)./', $hook)) { continue; }
                [$c, $m, $raw] = value($t, $vi, $cls, $propNew[$cls] ?? []);
                $found[] = ['ajax', $rel, $t[$vi]->line, 'callback', $c, $m, $raw];
                break; // one handler per call site: the key is its line
            }
            continue;
        }
        // register_rest_route( ... ): keys 'callback' / 'permission_callback'
        // at the depth of a method group (the options array, or an array in it)
        $d = 0;
        for ($j = $open; $j < $n; $j++) {
            $x = $t[$j]->text;
            if ($x === '(' || $x === '[') { $d++; }
            if ($x === ')' || $x === ']') { $d--; if ($d === 0) { break; } }
            if ($t[$j]->id === T_CONSTANT_ENCAPSED_STRING && ($d === 2 || $d === 3)) {
                $k = unquote($x);
                if ($k !== 'callback' && $k !== 'permission_callback') { continue; }
                $arrow = sig($t, $j, 1);
                if ($t[$arrow]->id !== T_DOUBLE_ARROW) { continue; }
                $vi = sig($t, $arrow, 1);
                [$c, $m, $raw] = value($t, $vi, $cls, $propNew[$cls] ?? []);
                $found[] = ['rest', $rel, $t[$vi]->line, $k === 'callback' ? 'callback' : 'permission', $c, $m, $raw];
            }
        }
    }
}

foreach ($found as [$kind, $rel, $line, $role, $c, $m, $raw]) {
    if ($c === '') {
        $target = $m;
    } else {
        // the class that declares the method
        $k = strtolower($c);
        $seen = [];
        while ($k !== '' && !isset($methods[$k][strtolower($m)]) && !isset($seen[$k])) {
            $seen[$k] = true;
            $k = $parents[$k] ?? '';
        }
        $target = $k === '' ? 'missing:' . $c . '::' . $m : ($names[$k] ?? $k) . '::' . $m;
    }
    echo "$kind\t$rel:$line:$role\t$target\n";
}
