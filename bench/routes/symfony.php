<?php
// symfony.php lists the attribute (#[Route]) and annotation (@Route) routes of
// a Symfony application with their handlers, as a truth for ragraf's handler
// linking (bench/routes/main.go compares the two).
//
// Usage: php symfony.php ROOT
//
// PHP's tokenizer finds each class under ROOT/src and the attributes and
// docblock before the class and before each of its methods. An attribute
// whose name resolves (through the file's `use` imports) to Symfony's Route
// is evaluated by PHP itself, as `new Route(ARGS)` with Symfony's own Route
// class (Debian's php-symfony-routing, 5.4); a docblock is read by
// Doctrine's DocParser (php-doctrine-annotations) with @Route imported. A
// class-level route gives the prefix. One line per route method:
//
//   symfony  METHOD /path  Class::method
//
// METHOD is ANY when the route names no methods. Routes in YAML or XML files
// and the routes of bundles outside src/ are not listed.

set_include_path('/usr/share/php' . PATH_SEPARATOR . get_include_path());
require_once 'Symfony/Component/Routing/autoload.php';
require_once 'Doctrine/Common/Annotations/autoload.php';

use Doctrine\Common\Annotations\DocParser;
use Symfony\Component\Routing\Annotation\Route;

$root = rtrim($argv[1] ?? '.', '/');
$routeClasses = ['symfony\component\routing\annotation\route', 'symfony\component\routing\attribute\route'];

$parser = new DocParser();
$parser->setIgnoreNotImportedAnnotations(true);
$parser->setImports(['route' => Route::class]);

function sig(array $t, int $i, int $dir): int {
    for ($i += $dir; $i >= 0 && $i < count($t); $i += $dir) {
        if (!in_array($t[$i]->id, [T_WHITESPACE, T_COMMENT, T_DOC_COMMENT], true)) { return $i; }
    }
    return -1;
}

// routes reads the Route attributes and annotations of one declaration.
function routes(array $attrs, ?string $doc, string $ns, array $uses, DocParser $parser, array $routeClasses): array {
    $out = [];
    foreach ($attrs as [$name, $args]) {
        $first = strtolower(explode('\\', ltrim($name, '\\'))[0]);
        $full = $name[0] === '\\' ? strtolower(substr($name, 1))
            : (isset($uses[$first]) ? strtolower($uses[$first] . substr($name, strlen($first))) : strtolower($ns . '\\' . $name));
        if (!in_array($full, $routeClasses, true)) { continue; }
        $header = ($ns !== '' ? "namespace $ns; " : '');
        foreach ($uses as $alias => $target) {
            if (!in_array(strtolower($target), $routeClasses, true)) { $header .= "use $target as $alias; "; }
        }
        try {
            $out[] = eval($header . "return new \\Symfony\\Component\\Routing\\Annotation\\Route$args;");
        } catch (Throwable $e) {
            fwrite(STDERR, "attribute not evaluated: $name$args: {$e->getMessage()}\n");
        }
    }
    if ($doc !== null && stripos($doc, '@Route') !== false) {
        try {
            foreach ($parser->parse($doc) as $a) {
                if ($a instanceof Route) { $out[] = $a; }
            }
        } catch (Throwable $e) {
            fwrite(STDERR, "docblock not parsed: {$e->getMessage()}\n");
        }
    }
    return $out;
}

$it = new RecursiveIteratorIterator(new RecursiveDirectoryIterator("$root/src", FilesystemIterator::SKIP_DOTS));
$files = [];
foreach ($it as $f) { if (str_ends_with($f->getPathname(), '.php')) { $files[] = $f->getPathname(); } }
sort($files);
foreach ($files as $file) {
    $t = PhpToken::tokenize(file_get_contents($file));
    $n = count($t);
    $ns = ''; $uses = []; $depth = 0;
    $cls = null; $clsDepth = -1; $prefixes = [''];
    $attrs = []; $doc = null;
    for ($i = 0; $i < $n; $i++) {
        $x = $t[$i];
        if ($x->id === T_DOC_COMMENT) { $doc = $x->text; continue; }
        if ($x->id === T_ATTRIBUTE) {
            // #[A(args), B] up to the matching ]
            $d = 1; $j = $i + 1; $cur = ''; $items = [];
            for (; $j < $n && $d > 0; $j++) {
                $s = $t[$j]->text;
                if ($s === '[' || $t[$j]->id === T_ATTRIBUTE) { $d++; }
                if ($s === ']') { $d--; if ($d === 0) { break; } }
                if ($s === ',' && $d === 1 && substr_count($cur, '(') === substr_count($cur, ')')) { $items[] = $cur; $cur = ''; continue; }
                $cur .= $s;
            }
            $items[] = $cur;
            foreach ($items as $it2) {
                $it2 = trim($it2);
                if ($it2 === '') { continue; }
                $p = strpos($it2, '(');
                $attrs[] = $p === false ? [$it2, '()'] : [trim(substr($it2, 0, $p)), substr($it2, $p)];
            }
            $i = $j;
            continue;
        }
        if ($x->text === '{' || $x->id === T_CURLY_OPEN || $x->id === T_DOLLAR_OPEN_CURLY_BRACES) { $depth++; $attrs = []; $doc = null; continue; }
        if ($x->text === '}') { $depth--; if ($cls !== null && $depth < $clsDepth) { $cls = null; } $attrs = []; $doc = null; continue; }
        if ($x->text === ';') { $attrs = []; $doc = null; }
        if ($x->id === T_NAMESPACE && $depth === 0) { $ns = $t[sig($t, $i, 1)]->text; continue; }
        if ($x->id === T_USE && $depth === 0) {
            $q = sig($t, $i, 1);
            if (in_array($t[$q]->id, [T_NAME_QUALIFIED, T_NAME_FULLY_QUALIFIED, T_STRING], true)) {
                $full = ltrim($t[$q]->text, '\\');
                $r = sig($t, $q, 1);
                $alias = substr($full, strrpos('\\' . $full, '\\'));
                if ($t[$r]->id === T_AS) { $alias = $t[sig($t, $r, 1)]->text; }
                $uses[strtolower($alias)] = $full;
            }
            continue;
        }
        if ($x->id === T_CLASS && $cls === null) {
            $p = sig($t, $i, -1);
            if ($p >= 0 && in_array($t[$p]->id, [T_DOUBLE_COLON, T_NEW], true)) { continue; }
            $q = sig($t, $i, 1);
            if ($t[$q]->id !== T_STRING) { continue; }
            $cls = ($ns === '' ? '' : $ns . '\\') . $t[$q]->text;
            $clsDepth = $depth + 1;
            $prefixes = [''];
            $cr = routes($attrs, $doc, $ns, $uses, $parser, $routeClasses);
            if ($cr) { $prefixes = array_map(fn($r) => (string) $r->getPath(), $cr); }
            $attrs = []; $doc = null;
            continue;
        }
        if ($x->id === T_FUNCTION && $cls !== null && $depth === $clsDepth) {
            $q = sig($t, $i, 1);
            if ($t[$q]->text === '&') { $q = sig($t, $q, 1); }
            $m = $t[$q]->text;
            foreach (routes($attrs, $doc, $ns, $uses, $parser, $routeClasses) as $r) {
                $ms = $r->getMethods() ?: ['ANY'];
                foreach ($prefixes as $pre) {
                    $path = '/' . ltrim($pre . $r->getPath(), '/');
                    foreach ($ms as $verb) {
                        echo "symfony\t" . strtoupper($verb) . " $path\t$cls::$m\n";
                    }
                }
            }
            $attrs = []; $doc = null;
        }
    }
}
