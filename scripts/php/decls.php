<?php
// decls.php lists the declarations of PHP files using PHP's own tokenizer, as
// an independent reference for the line ranges ragraf's extractor reports.
//
// Usage: php decls.php FILE...   or   php decls.php - < list-of-files
//
// For each declaration it prints one line:
//
//   path <TAB> kind <TAB> qname <TAB> start <TAB> end
//
// kind is namespace, class, interface, trait, enum, case (enum case),
// function, method, property (promoted constructor properties included),
// constant (class constants and global `const`) or define (`define('X', ...)`
// with a literal name). Qualified names: `NS\Name`, `NS\Class::method`,
// `NS\Class::$prop`, `NS\Class::CONST`, `NS\func`, `NS\CONST`; a define keeps its
// literal name without a leading backslash; the braced global namespace
// `namespace { }` is `\`.
//
// Lines are 1-based and inclusive. start is the line of the first attribute
// (`#[`) or modifier, else of the keyword (or name); comments and docblocks
// before it are not part of the declaration. end is the line of the closing
// `}` (bodies), of the `;` (statements) or of the `)` (define calls). Two cases
// need a rule:
//
//   - A property or constant statement with one element (`public $a = 1;`,
//     `const A = 1;`) spans the whole statement, attributes and modifiers to
//     `;`. With several elements (`public $a, $b;`, `const A = 1, B = 2;`)
//     each element spans its own tokens, from its name to the last token of
//     its default value; the shared modifiers and `;` belong to none of them.
//   - An unbraced namespace (`namespace A;`) runs from its keyword to the
//     last token before the next `namespace` statement or the end of the
//     file, not counting comments and whitespace (inline HTML and close tags do
//     count).
//
// The script matches brackets on the token stream and reads declarations by
// keyword; it does not parse expressions. Files with syntax errors still get
// an answer, which is only as good as the brackets are balanced.

const MODIFIERS = [T_PUBLIC, T_PROTECTED, T_PRIVATE, T_STATIC, T_ABSTRACT, T_FINAL, T_READONLY, T_VAR];

final class Decls
{
    /** @var list<array{int,string,int,int}> id, text, start line, end line of significant tokens */
    private array $t = [];
    /** @var array<int,int> index of the matching bracket, both ways */
    private array $match = [];
    private string $ns = '';
    /** @var list<array{string,string,int,int,int}> kind, qname, start, end, sort key */
    public array $out = [];

    public function __construct(string $src)
    {
        foreach (PhpToken::tokenize($src) as $tok) {
            $id = $tok->id;
            if ($id === T_WHITESPACE || $id === T_COMMENT || $id === T_DOC_COMMENT) {
                continue;
            }
            if ($id === T_INLINE_HTML && trim($tok->text) === '') {
                continue;
            }
            // a token ends on the line of its last character other than a final newline
            $body = $tok->text;
            if (str_ends_with($body, "\n")) {
                $body = substr($body, 0, -1);
            }
            $this->t[] = [$id, $tok->text, $tok->line, $tok->line + substr_count($body, "\n")];
        }
        $this->matchBrackets();
    }

    private function matchBrackets(): void
    {
        $stack = [];
        foreach ($this->t as $i => [$id, $text]) {
            $text = $id < 256 ? $text : '';
            if ($text === '(' || $text === '[' || $text === '{' || $id === T_ATTRIBUTE
                || $id === T_CURLY_OPEN || $id === T_DOLLAR_OPEN_CURLY_BRACES) {
                $stack[] = $i;
            } elseif ($text === ')' || $text === ']' || $text === '}') {
                if ($stack) {
                    $open = array_pop($stack);
                    $this->match[$open] = $i;
                    $this->match[$i] = $open;
                }
            }
        }
    }

    private function id(int $i): int
    {
        return $this->t[$i][0] ?? -1;
    }

    private function text(int $i): string
    {
        return $this->t[$i][1] ?? '';
    }

    /** The character of a one-character token, or '' (string parts such as ")" are not punctuation). */
    private function punct(int $i): string
    {
        return $this->id($i) >= 0 && $this->id($i) < 256 ? $this->t[$i][1] : '';
    }

    private function startLine(int $i): int
    {
        return $this->t[$i][2];
    }

    private function endLine(int $i): int
    {
        return $this->t[$i][3];
    }

    private function close(int $i): int
    {
        return $this->match[$i] ?? count($this->t) - 1;
    }

    private static function isName(string $s): bool
    {
        return preg_match('/^[a-zA-Z_\x80-\xff][a-zA-Z0-9_\x80-\xff]*$/', $s) === 1;
    }

    private function qualify(string $name): string
    {
        return $this->ns === '' ? $name : $this->ns . '\\' . $name;
    }

    private function emit(string $kind, string $qname, int $start, int $end, int $at): void
    {
        $this->out[] = [$kind, $qname, $start, $end, $at];
    }

    /** Index just past the next `;` at this bracket depth, or of the closing bracket of the enclosing group. */
    private function skipStatement(int $i, int $end): int
    {
        for (; $i < $end; $i++) {
            $text = $this->punct($i);
            if ($text === ';' || $this->id($i) === T_CLOSE_TAG) {
                return $i + 1;
            }
            if (isset($this->match[$i]) && $this->match[$i] > $i) {
                $i = $this->match[$i];
            } elseif ($text === ')' || $text === ']' || $text === '}') {
                return $i; // unbalanced: stop at the enclosing close
            }
        }
        return $end;
    }

    /** First index >= $i whose text is one of $stops, skipping bracketed groups. */
    private function findAtDepth(int $i, int $end, array $stops): int
    {
        for (; $i < $end; $i++) {
            $text = $this->punct($i);
            if (in_array($text, $stops, true) || ($this->id($i) === T_CLOSE_TAG && in_array(';', $stops, true))) {
                return $i;
            }
            if (isset($this->match[$i]) && $this->match[$i] > $i) {
                $i = $this->match[$i];
            }
        }
        return $end;
    }

    /** Walks back from keyword $i over modifiers and attributes; returns the first index. */
    private function declStart(int $i, bool $modifiers = true): int
    {
        $j = $i - 1;
        while ($j >= 0) {
            if ($modifiers && in_array($this->id($j), MODIFIERS, true)) {
                $j--;
            } elseif ($this->punct($j) === ']' && isset($this->match[$j]) && $this->id($this->match[$j]) === T_ATTRIBUTE) {
                $j = $this->match[$j] - 1;
            } else {
                break;
            }
        }
        return $j + 1;
    }

    public function run(): void
    {
        $this->code(0, count($this->t), true);
        usort($this->out, fn($a, $b) => $a[4] <=> $b[4]);
    }

    /** Scans code in [$i, $end): top level, namespace bodies and function bodies. */
    private function code(int $i, int $end, bool $top): void
    {
        $openNs = -1; // index into out of an unbraced namespace still open
        for (; $i < $end; $i++) {
            $id = $this->id($i);
            $text = $this->text($i);
            if ($id === T_NAMESPACE && $top) {
                $next = $i + 1;
                $name = '';
                if (in_array($this->id($next), [T_STRING, T_NAME_QUALIFIED], true)) {
                    $name = $this->text($next);
                    $next++;
                }
                if ($this->punct($next) === '{') {
                    $close = $this->close($next);
                    $this->emit('namespace', $name === '' ? '\\' : $name, $this->startLine($i), $this->endLine($close), $i);
                    $saved = $this->ns;
                    $this->ns = $name;
                    $this->code($next + 1, $close, false);
                    $this->ns = $saved;
                    $i = $close;
                    continue;
                }
                if ($openNs >= 0) {
                    $this->out[$openNs][3] = $this->endLine($i - 1);
                }
                $this->ns = $name;
                $this->emit('namespace', $name, $this->startLine($i), $this->startLine($i), $i);
                $openNs = count($this->out) - 1;
                $i = $next;
                continue;
            }
            if ($id === T_USE && $this->punct($i + 1) !== '(') {
                $i = $this->skipStatement($i, $end) - 1;
                continue;
            }
            if ($id === T_CLASS || $id === T_INTERFACE || $id === T_TRAIT || $id === T_ENUM) {
                $i = $this->classLike($i, $end);
                continue;
            }
            if ($id === T_FUNCTION) {
                $this->function($i);
                continue;
            }
            if ($id === T_CONST) {
                $i = $this->constants($i, $end, $this->declStart($i, false), null) - 1;
                continue;
            }
            if (($id === T_STRING && strtolower($text) === 'define') || ($id === T_NAME_FULLY_QUALIFIED && strtolower($text) === '\\define')) {
                $this->define($i);
            }
        }
        if ($openNs >= 0) {
            $this->out[$openNs][3] = $this->endLine($end - 1);
        }
    }

    /** Handles a class-like keyword at $i; returns the index to continue from. */
    private function classLike(int $i, int $end): int
    {
        $prev = $this->id($i - 1);
        if ($prev === T_DOUBLE_COLON || $prev === T_OBJECT_OPERATOR || $prev === T_NULLSAFE_OBJECT_OPERATOR) {
            return $i; // Foo::class
        }
        $start = $this->declStart($i);
        $anonymous = $this->id($start - 1) === T_NEW;
        $name = $anonymous ? '' : $this->text($i + 1);
        if (!$anonymous && !self::isName($name)) {
            return $i;
        }
        $open = $this->findAtDepth($i + 1, $end, ['{', ';']);
        if ($this->punct($open) !== '{') {
            return $i;
        }
        $close = $this->close($open);
        $qname = null;
        if (!$anonymous) {
            $kind = [T_CLASS => 'class', T_INTERFACE => 'interface', T_TRAIT => 'trait', T_ENUM => 'enum'][$this->id($i)];
            $qname = $this->qualify($name);
            $this->emit($kind, $qname, $this->startLine($start), $this->endLine($close), $start);
        }
        $this->members($open + 1, $close, $qname);
        return $close;
    }

    /** Reads the members of a class body in [$i, $end); $class is null for an anonymous class. */
    private function members(int $i, int $end, ?string $class): void
    {
        while ($i < $end) {
            $start = $i;
            while ($i < $end && $this->id($i) === T_ATTRIBUTE) {
                $i = $this->close($i) + 1;
            }
            while ($i < $end && in_array($this->id($i), MODIFIERS, true)) {
                $i++;
            }
            if ($i >= $end) {
                break;
            }
            $id = $this->id($i);
            if ($this->punct($i) === ';' && $i === $start) {
                $i++;
            } elseif ($id === T_USE) {
                $stop = $this->findAtDepth($i, $end, [';', '{']);
                $i = $this->punct($stop) === '{' ? $this->close($stop) + 1 : $stop + 1;
            } elseif ($id === T_CASE) {
                $semi = $this->findAtDepth($i, $end, [';']);
                if ($class !== null && self::isName($this->text($i + 1))) {
                    $this->emit('case', $class . '::' . $this->text($i + 1), $this->startLine($start), $this->endLine(min($semi, $end - 1)), $start);
                }
                $i = $semi + 1;
            } elseif ($id === T_CONST) {
                $i = $this->constants($i, $end, $start, $class);
            } elseif ($id === T_FUNCTION) {
                $i = $this->method($i, $end, $start, $class);
            } else {
                $i = $this->properties($i, $end, $start, $class);
            }
        }
    }

    /** A method starting at keyword $i (first attribute or modifier at $start); returns the index after it. */
    private function method(int $i, int $end, int $start, ?string $class): int
    {
        $n = $i + 1;
        if ($this->text($n) === '&') {
            $n++;
        }
        $name = $this->text($n);
        $paren = $n + 1;
        if ($this->punct($paren) !== '(') {
            return $this->skipStatement($i, $end);
        }
        $closeParen = $this->close($paren);
        $stop = $this->findAtDepth($closeParen + 1, $end, ['{', ';']);
        $last = $this->punct($stop) === '{' ? $this->close($stop) : min($stop, $end - 1);
        if ($class !== null) {
            $this->emit('method', $class . '::' . $name, $this->startLine($start), $this->endLine($last), $start);
            if (strtolower($name) === '__construct') {
                $this->promoted($paren, $closeParen, $class);
            }
        }
        if ($this->punct($stop) === '{') {
            $this->code($stop + 1, $last, false);
        }
        return $last + 1;
    }

    /** Parameters in ($open, $close) with a visibility or readonly modifier are properties. */
    private function promoted(int $open, int $close, string $class): void
    {
        $i = $open + 1;
        while ($i < $close) {
            $comma = $this->findAtDepth($i, $close, [',']);
            $j = $i;
            while ($j < $comma && $this->id($j) === T_ATTRIBUTE) {
                $j = $this->close($j) + 1;
            }
            $promoted = false;
            while ($j < $comma && in_array($this->id($j), MODIFIERS, true)) {
                $promoted = true;
                $j++;
            }
            if ($promoted) {
                for ($v = $j; $v < $comma; $v++) {
                    if ($this->id($v) === T_VARIABLE) {
                        $this->emit('property', $class . '::' . $this->text($v), $this->startLine($i), $this->endLine($comma - 1), $i);
                        break;
                    }
                }
            }
            $i = $comma + 1;
        }
    }

    /** A named function at keyword $i; closures are skipped. The body is scanned by the caller. */
    private function function(int $i): void
    {
        $n = $i + 1;
        if ($this->text($n) === '&') {
            $n++;
        }
        if (!self::isName($this->text($n)) || $this->punct($n + 1) !== '(') {
            return;
        }
        $close = $this->close($n + 1);
        $stop = $this->findAtDepth($close + 1, count($this->t), ['{', ';']);
        $last = $this->punct($stop) === '{' ? $this->close($stop) : $stop;
        $start = $this->declStart($i, false);
        $this->emit('function', $this->qualify($this->text($n)), $this->startLine($start), $this->endLine($last), $start);
    }

    /** `const` elements from keyword $i; returns the index after the statement. */
    private function constants(int $i, int $end, int $start, ?string $class): int
    {
        $semi = $this->findAtDepth($i, $end, [';']);
        $elements = [];
        $from = $i + 1;
        while ($from < $semi) {
            $comma = $this->findAtDepth($from, $semi, [',']);
            $eq = $this->findAtDepth($from, $comma, ['=']);
            if ($eq < $comma && $eq > $from) {
                $elements[] = [$eq - 1, $comma - 1];
            }
            $from = $comma + 1;
        }
        foreach ($elements as [$nameAt, $lastAt]) {
            $name = $this->text($nameAt);
            $qname = $class !== null ? $class . '::' . $name : $this->qualify($name);
            if (count($elements) === 1) {
                $this->emit('constant', $qname, $this->startLine($start), $this->endLine(min($semi, $end - 1)), $start);
            } else {
                $this->emit('constant', $qname, $this->startLine($nameAt), $this->endLine($lastAt), $nameAt);
            }
        }
        return $semi + 1;
    }

    /** Property elements of a statement whose first token after modifiers is $i. */
    private function properties(int $i, int $end, int $start, ?string $class): int
    {
        $semi = $this->findAtDepth($i, $end, [';', '{']);
        if ($this->punct($semi) === '{') { // not a property statement we understand
            return $this->close($semi) + 1;
        }
        $elements = [];
        $from = $i;
        while ($from < $semi) {
            $comma = $this->findAtDepth($from, $semi, [',']);
            for ($v = $from; $v < $comma; $v++) {
                if ($this->id($v) === T_VARIABLE) {
                    $elements[] = [$v, $comma - 1];
                    break;
                }
            }
            $from = $comma + 1;
        }
        if ($class !== null) {
            foreach ($elements as [$nameAt, $lastAt]) {
                $qname = $class . '::' . $this->text($nameAt);
                if (count($elements) === 1) {
                    $this->emit('property', $qname, $this->startLine($start), $this->endLine(min($semi, $end - 1)), $start);
                } else {
                    $this->emit('property', $qname, $this->startLine($nameAt), $this->endLine($lastAt), $nameAt);
                }
            }
        }
        return max($semi + 1, $i + 1);
    }

    /** `define('NAME', ...)` with a literal first argument. */
    private function define(int $i): void
    {
        $prev = $this->id($i - 1);
        if (in_array($prev, [T_OBJECT_OPERATOR, T_NULLSAFE_OBJECT_OPERATOR, T_DOUBLE_COLON, T_FUNCTION, T_NEW, T_CONST], true)) {
            return;
        }
        if ($this->punct($i + 1) !== '(') {
            return;
        }
        $a = $i + 2;
        if (self::isName($this->text($a)) && $this->punct($a + 1) === ':') {
            $a += 2; // named argument
        }
        if ($this->id($a) !== T_CONSTANT_ENCAPSED_STRING || !in_array($this->punct($a + 1), [',', ')'], true)) {
            return;
        }
        $lit = $this->text($a);
        $body = substr($lit, 1, -1);
        if ($lit[0] === "'") {
            $name = strtr($body, ['\\\\' => '\\', "\\'" => "'"]);
        } else {
            $name = stripcslashes($body);
        }
        $name = ltrim($name, '\\');
        if ($name === '') {
            return;
        }
        $this->emit('define', $name, $this->startLine($i), $this->endLine($this->close($i + 1)), $i);
    }
}

$files = array_slice($argv, 1);
if ($files === [] || $files === ['-']) {
    $files = array_filter(array_map('trim', explode("\n", stream_get_contents(STDIN))), 'strlen');
}
$status = 0;
foreach ($files as $path) {
    $src = @file_get_contents($path);
    if ($src === false) {
        fwrite(STDERR, "decls.php: cannot read $path\n");
        $status = 1;
        continue;
    }
    $d = new Decls(str_replace("\r\n", "\n", $src));
    $d->run();
    foreach ($d->out as [$kind, $qname, $start, $end]) {
        echo "$path\t$kind\t$qname\t$start\t$end\n";
    }
}
exit($status);
