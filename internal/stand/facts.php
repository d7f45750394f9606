<?php
// PHP's own tokenizer as an independent source of truth for the stand: it
// reads relative paths from stdin (one per line, the working directory is the
// project root) and prints one JSON object a line: declarations with their
// line ranges and heritage, call sites by name, and SQL literals that write a
// table. It knows nothing of ragraf.
error_reporting(0);
ini_set('memory_limit', '1G');
$ident = [T_STRING => 1];
foreach (['T_NAME_QUALIFIED', 'T_NAME_FULLY_QUALIFIED', 'T_NAME_RELATIVE'] as $c) {
    if (defined($c)) { $ident[constant($c)] = 1; }
}
$classKw = [T_CLASS => 'class', T_INTERFACE => 'interface', T_TRAIT => 'trait'];
if (defined('T_ENUM')) { $classKw[T_ENUM] = 'enum'; }
$skip = [T_WHITESPACE => 1, T_COMMENT => 1, T_DOC_COMMENT => 1];
$objOp = [T_OBJECT_OPERATOR => '->', T_DOUBLE_COLON => '::'];
if (defined('T_NULLSAFE_OBJECT_OPERATOR')) { $objOp[T_NULLSAFE_OBJECT_OPERATOR] = '->'; }
// UPDATE needs its SET, so that prose ("update the cache") is not a write
$sqlRe = '/\b(?:(INSERT\s+(?:IGNORE\s+)?INTO|REPLACE\s+INTO|DELETE\s+FROM)\s+[`"\']?([A-Za-z_][A-Za-z0-9_]*)|(UPDATE)\s+[`"\']?([A-Za-z_][A-Za-z0-9_]*)[`"\']?\s+SET\b)/i';

function out($a) { echo json_encode($a, JSON_UNESCAPED_SLASHES | JSON_UNESCAPED_UNICODE), "\n"; }
function short($n) { $p = strrpos($n, '\\'); return $p === false ? $n : substr($n, $p + 1); }

// PHP's own functions: a project function of the same name (a polyfill, a
// namespaced stub) shares its calls by name with them
out(['k' => 'builtins', 'names' => get_defined_functions()['internal']]);

$in = fopen('php://stdin', 'r');
while (($path = fgets($in)) !== false) {
    $path = rtrim($path, "\r\n");
    if ($path === '') { continue; }
    $src = @file_get_contents($path);
    if ($src === false) { continue; }
    $raw = @token_get_all($src);
    // significant tokens: [id, text, line, endline]
    $t = [];
    $line = 1;
    foreach ($raw as $tok) {
        if (is_array($tok)) { $id = $tok[0]; $text = $tok[1]; $line = $tok[2]; }
        else { $id = 0; $text = $tok; }
        $end = $line + substr_count($text, "\n");
        if (!isset($skip[$id])) { $t[] = [$id, $text, $line, $end]; }
        if ($id === T_CONSTANT_ENCAPSED_STRING || $id === T_ENCAPSED_AND_WHITESPACE) {
            if (preg_match_all($sqlRe, $text, $m, PREG_SET_ORDER)) {
                foreach ($m as $mm) {
                    $verb = ($mm[1] ?? '') !== '' ? $mm[1] : $mm[3];
                    $table = ($mm[2] ?? '') !== '' ? $mm[2] : $mm[4];
                    out(['p' => $path, 'k' => 'sql', 'op' => strtolower(preg_split('/\s+/', $verb)[0]), 'name' => $table, 'line' => $line, 'end' => $end]);
                }
            }
        }
        $line = $end;
    }
    $n = count($t);
    $ns = '';
    $depth = 0;          // brace depth
    $scopes = [];        // [name, depth at which its body opened]
    $funcs = [];         // open functions: [index into $decls, depth]
    for ($i = 0; $i < $n; $i++) {
        [$id, $text, $ln] = $t[$i];
        if ($text === '{' || $id === T_CURLY_OPEN || $id === T_DOLLAR_OPEN_CURLY_BRACES) { $depth++; continue; }
        if ($text === '}') {
            $depth--;
            while ($scopes && end($scopes)[1] > $depth) { array_pop($scopes); }
            while ($funcs && end($funcs)[1] > $depth) {
                [$d] = array_pop($funcs);
                $decls[$d]['end'] = $t[$i][2];
                out($decls[$d]);
            }
            continue;
        }
        if ($id === T_NAMESPACE && $i + 1 < $n && isset($ident[$t[$i + 1][0]])) { $ns = $t[$i + 1][1]; continue; }
        $prev = $i > 0 ? $t[$i - 1][0] : 0;
        if (isset($classKw[$id]) && $prev !== T_DOUBLE_COLON && $i + 1 < $n && $t[$i + 1][0] === T_STRING) {
            $name = $t[$i + 1][1];
            $ext = []; $impl = []; $mode = '';
            for ($j = $i + 2; $j < $n && $t[$j][1] !== '{' && $t[$j][1] !== ';'; $j++) {
                if ($t[$j][0] === T_EXTENDS) { $mode = 'e'; }
                elseif ($t[$j][0] === T_IMPLEMENTS) { $mode = 'i'; }
                elseif (isset($ident[$t[$j][0]])) {
                    if ($mode === 'e') { $ext[] = short($t[$j][1]); }
                    elseif ($mode === 'i') { $impl[] = short($t[$j][1]); }
                }
            }
            $d = ['p' => $path, 'k' => 'decl', 'kind' => $classKw[$id], 'name' => $name, 'ns' => $ns, 'scope' => '', 'line' => $ln, 'end' => $ln, 'ext' => $ext, 'impl' => $impl];
            if ($j < $n && $t[$j][1] === '{') {
                $decls[] = $d;
                $funcs[] = [count($decls) - 1, $depth + 1];
                $scopes[] = [$name, $depth + 1];
                $depth++;
                $i = $j;
            }
            continue;
        }
        if ($id === T_FUNCTION) {
            $j = $i + 1;
            if ($j < $n && $t[$j][1] === '&') { $j++; }
            if ($j >= $n || $t[$j][0] !== T_STRING) { continue; } // a closure
            $name = $t[$j][1];
            $inClass = $scopes && end($scopes)[1] === $depth;
            $d = ['p' => $path, 'k' => 'decl', 'kind' => $inClass ? 'method' : 'function', 'name' => $name, 'ns' => $ns,
                  'scope' => $inClass ? end($scopes)[0] : '', 'line' => $ln, 'end' => $ln];
            // skip the parameter list, then find the body or the end of an abstract declaration
            $k = $j + 1; $par = 0;
            for (; $k < $n; $k++) {
                if ($t[$k][1] === '(') { $par++; }
                elseif ($t[$k][1] === ')') { $par--; if ($par === 0) { break; } }
            }
            for ($k++; $k < $n && $t[$k][1] !== '{' && $t[$k][1] !== ';'; $k++) {}
            if ($k < $n && $t[$k][1] === '{') {
                $decls[] = $d;
                $funcs[] = [count($decls) - 1, $depth + 1];
                $depth++;
                $i = $k;
            } else {
                $d['end'] = $k < $n ? $t[$k][2] : $ln;
                out($d);
                $i = $j;
            }
            continue;
        }
        if (isset($ident[$id]) && $i + 1 < $n && $t[$i + 1][1] === '(') {
            if (isset($objOp[$prev])) {
                out(['p' => $path, 'k' => 'call', 'name' => $text, 'via' => $objOp[$prev], 'line' => $ln]);
            } elseif ($prev !== T_NEW && $prev !== T_FUNCTION && $prev !== T_CONST && $prev !== T_USE) {
                out(['p' => $path, 'k' => 'call', 'name' => short($text), 'via' => 'fn', 'line' => $ln]);
            }
        }
    }
    // declarations still open at the end of a broken file
    foreach ($funcs as [$d]) { $decls[$d]['end'] = $line; out($decls[$d]); }
    $decls = [];
}
