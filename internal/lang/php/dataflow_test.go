package php

import (
	"context"
	"strings"
	"testing"

	"github.com/ragraf/ragraf/internal/dataflow"
)

func lowerSrc(t *testing.T, src string) []*dataflow.Func {
	t.Helper()
	x, err := New()
	if err != nil {
		t.Fatal(err)
	}
	defer x.Close()
	fs, err := x.Dataflow(context.Background(), "a.php", []byte(src), 0)
	if err != nil {
		t.Fatal(err)
	}
	return fs
}

// TestDataflowLowering checks the IR of small functions, one node a line
// as Func.Dump renders it.
func TestDataflowLowering(t *testing.T) {
	for _, c := range []struct {
		name, src string
		want      []string // lines of the function's dump that must be there
	}{
		{"interpolation and compound concat", `<?php
function f($a) {
    $s = "x $a";
    $s .= $a;
    return $s;
}`, []string{"1 L3 assign $s <- 0:concat", "2 L4 assign $s <- 1:concat 0:concat", "3 L5 return return <- 2:assign"}},
		{"coalesce and ternary", `<?php
function f($a, $b) {
    $x = $a ?? $b;
    $y = $a ? $b : 'z';
    return $y;
}`, []string{"2 L3 assign $x <- 0:assign 1:assign", "3 L4 assign $y <- 1:assign"}},
		{"destructuring and foreach", `<?php
function f($rows) {
    foreach ($rows as $k => $v) { $last = $v; }
    [$a, $b] = $last;
    return $b;
}`, []string{"1 L3 foreach $k <- 0:load", "2 L3 foreach $v <- 0:load", "5 L4 assign $b <- 3:load"}},
		{"a call's arguments and value", `<?php
function f($a) {
    return strtolower(trim($a));
}`, []string{"1 L3 arg arg 0 of trim() <- 0:assign", "2 L3 call trim() <- 1:call", "3 L3 arg arg 0 of strtolower() <- 2:assign"}},
		{"closure use", `<?php
function f($a) {
    $g = function ($z) use ($a) { return $a . $z; };
}`, []string{"1 L3 use $a <- 0:assign", "3 L3 closure_return return <- 1:concat 2:concat"}},
		{"loop back edge", `<?php
function f($n) {
    $acc = '';
    while ($n) { $tmp = $acc; $acc = $n; }
    return $tmp;
}`, []string{"2 L4 assign $tmp <- 1:assign 3:assign"}},
		{"a keyed array literal defines each key on its own line", `<?php
function f($a, $b) {
    $r = [
        'x' => $a,
        'y' => $b,
    ];
    return $r['y'];
}`, []string{"2 L4 assign $r['x'] <- 0:store", "3 L5 assign $r['y'] <- 1:store", "4 L7 return return <- 3:load"}},
		{"an unknown method's receiver reaches its value", `<?php
function f($d) {
    return (new DateTimeImmutable())->modify($d)->format('c');
}`, []string{"3 L3 call modify() <- 2:call 1:call", "5 L3 call format() <- 4:call 3:call"}},
		{"array literals keyed as PHP numbers them, appends continue the count", `<?php
function f($a, $b, $k) {
    $r = array('x', $a, 5 => $b, 'y');
    $r[] = $a;
    $s = [$k => $a, 'b'];
    $t = array('p', $a)[0];
    $r['k'] = $a;
    $r['k'] = $b;
    foreach ($b as $v) { $r[] = $v; }
    return $r[1] . $r[6] . $r[7] . $r['k'];
}`, []string{"3 L3 assign $r['0']", "4 L3 assign $r['1'] <- 0:store", "5 L3 assign $r['5'] <- 1:store",
			"6 L3 assign $r['6']", "7 L4 assign $r['7'] <- 0:store", "8 L5 assign $s[*] <- 0:store", "9 L5 assign $s[*]",
			"10 L6 assign $t", "14 L9 assign $r[*] <- 13:store", "15 L10 return return <- 4:concat 14:concat 6:concat 7:concat 12:concat"}},
		{"a built-in that reorders an array redefines it whole", `<?php
function f($a) {
    $r = array('x', $a);
    sort($r);
    return $r[0];
}`, []string{"5 L4 assign $r <- 1:assign 2:assign", "6 L5 return return <- 5:load"}},
		{"a finally that returns replaces the returns before it", `<?php
function f($a, $b) {
    try { return $a; } catch (E $e) { return $e; } finally { $b = trim($b); return $b; }
}`, []string{"2 L3 replaced_return return <- 0:assign", "4 L3 replaced_return return <- 3:assign", "8 L3 return return <- 7:assign"}},
		{"a finally that does not return keeps them", `<?php
function f($a) {
    try { return $a; } finally { echo 'x'; }
}`, []string{"1 L3 return return <- 0:assign"}},
		{"unset is a call of its operands", `<?php
function f($o) {
    unset($o->p, $o->q);
}`, []string{"1 L3 load *::$p <- 0:load", "2 L3 arg arg 0 of unset() <- 1:assign", "5 L3 call unset() <- 2:call 4:call"}},
		{"imprecise: a variable variable of unknown name, a reference in an array", `<?php
function f($a) {
    global $g;
    $$a = 1;
    $r = [&$g];
}`, []string{"f imprecise=imprecise: reference,variable variable"}},
		{"a reference assignment binds both variables", `<?php
function f($a) {
    $foo = 'x';
    $bar = &$foo;
    $bar = $a;
    return $foo;
}`, []string{"f", "3 L5 assign $bar <- 0:assign", "4 L6 return return <- 1:assign 3:assign"}},
		{"foreach by reference writes the array's elements", `<?php
function f($a, $xs) {
    foreach ($xs as &$x) { $x = $a; }
    return $xs[0];
}`, []string{"f", "5 L3 assign $xs[*] <- 4:store", "6 L4 return return <- 1:load 3:load 5:load"}},
		{"a static variable starts with the value the last call left", `<?php
function f($a) {
    static $s = 'x';
    echo $s;
    $s = $a;
}`, []string{"f", "1 L3 assign $s <- 3:assign", "2 L4 output echo <- 1:assign"}},
		{"compact reads the named variables, extract defines the literal keys", `<?php
function f($a) {
    $k = $a;
    $r = compact('k');
    $arr = ['A' => $a, 'B' => 'b'];
    extract($arr);
    return $A;
}`, []string{"f", "3 L4 call compact() <- 2:call 1:store", "9 L6 assign $A <- 5:load", "11 L7 return return <- 9:assign"}},
		{"a variable variable of a known name", `<?php
function f($a) {
    $n = 'v';
    $$n = $a;
    return $v;
}`, []string{"f", "2 L4 assign $v <- 0:assign", "3 L5 return return <- 2:assign"}},
		{"a by-reference parameter hands its value back", `<?php
function f(&$out, $in) {
    $out = $in;
}`, []string{"f", "3 L4 refout $out (param 0) <- 2:assign"}},
		{"an argument with no value before the call may be written by it", `<?php
function f($in) {
    g($out, $in);
    return $out;
}`, []string{"f", "4 L3 refarg $out", "5 L4 return return <- 4:assign"}},
		{"closures called through a variable and by array_map, a named callback", `<?php
function f($in) {
    $h = function ($x) { return $x; };
    $r = $h($in);
    $m = array_map(fn($y) => $y . '!', [$in]);
    array_walk($m, 'show');
    return $r;
}`, []string{"f", "1 L3 param $x (param 0) <- 5:arg", "6 L4 call ?() <- 5:call 2:ret",
			"8 L5 param $y (param 0) <- 12:arg", "13 L5 call array_map() <- 11:call 12:call 9:ret",
			"18 L6 arg arg 0 of show() <- 15:load"}},
		{"output buffering and yield", `<?php
function f($in) {
    ob_start();
    echo $in;
    $o = ob_get_clean();
    yield $o;
}`, []string{"f", "3 L5 call ob_get_clean() <- 2:concat", "5 L6 return return <- 4:assign"}},
		{"a catch takes what its try block throws and what its calls may throw", `<?php
function f($in) {
    try { g($in); throw new E($in); } catch (E $e) { return $e; }
}`, []string{"f", "3 L3 thrown return", "6 L3 thrown return", "7 L3 throw return <- 5:assign", "8 L3 assign $e <- 3:assign 6:assign 7:assign"}},
		{"a goto back to a label is a loop", `<?php
function f($in) {
    $b = 'x';
    again:
    echo $b;
    $b = $in;
    if ($b) goto again;
}`, []string{"f", "2 L5 output echo <- 1:assign 3:assign"}},
	} {
		t.Run(c.name, func(t *testing.T) {
			fs := lowerSrc(t, c.src)
			if len(fs) != 2 {
				t.Fatalf("%d functions", len(fs))
			}
			dump := fs[1].Dump()
			for _, w := range c.want {
				if !strings.Contains(dump, w+"\n") {
					t.Errorf("missing %q in\n%s", w, dump)
				}
			}
		})
	}
}

// TestDataflowDeepConcat lowers a chain of many thousand concatenations and
// nested ifs without running out of stack or time.
func TestDataflowDeepConcat(t *testing.T) {
	var b strings.Builder
	b.WriteString("<?php\nfunction f($a) {\n$s = $a")
	for i := 0; i < 20000; i++ {
		b.WriteString(" . $a")
	}
	b.WriteString(";\n")
	for i := 0; i < 500; i++ {
		b.WriteString("if ($a) {\n")
	}
	b.WriteString("$s = $s . 'x';\n")
	for i := 0; i < 500; i++ {
		b.WriteString("}\n")
	}
	b.WriteString("return $s;\n}\n")
	fs := lowerSrc(t, b.String())
	if len(fs) != 2 || len(fs[1].Returns) != 1 {
		t.Fatalf("%d functions", len(fs))
	}
}

// TestDataflowFromFileTree: File with SetDataflow lowers the tree it parsed
// for its facts to the same IR as Dataflow, functions over the line limit
// skipped alike, and it survives the stored encoding.
func TestDataflowFromFileTree(t *testing.T) {
	src := `<?php
$id = $_GET['id'];
function q($c, $x) {
    $s = "SELECT " . $x;
    return mysqli_query($c, $s);
}
class A {
    function long($a) {
        $b = $a;
        $c = $b;
        return $c;
    }
}
q($conn, $id);
`
	x, err := New()
	if err != nil {
		t.Fatal(err)
	}
	defer x.Close()
	want, err := x.Dataflow(context.Background(), "a.php", []byte(src), 4)
	if err != nil {
		t.Fatal(err)
	}
	x.SetDataflow(true, 4)
	res, err := x.File(context.Background(), "a.php", []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Dataflow) != len(want) || len(want) != 3 {
		t.Fatalf("%d functions from File, %d from Dataflow; want 3", len(res.Dataflow), len(want))
	}
	back, err := dataflow.Decode(dataflow.Encode(res.Dataflow))
	if err != nil {
		t.Fatal(err)
	}
	for i := range want {
		if got := back[i].Dump(); got != want[i].Dump() || back[i].Skipped != want[i].Skipped {
			t.Errorf("function %d:\n%s\nwant\n%s", i, got, want[i].Dump())
		}
	}
	if want[2].Skipped != dataflow.TooLarge || len(want[2].Nodes) != 0 {
		t.Errorf("a 5-line method under a 4-line limit: skipped %q, %d nodes", want[2].Skipped, len(want[2].Nodes))
	}
	x.SetDataflow(false, 0)
	if res, _ := x.File(context.Background(), "a.php", []byte(src)); res.Dataflow != nil {
		t.Error("File lowered with data flow off")
	}
}

// TestDataflowPropertyMagic: __isset and __unset carry their class's public
// properties (isset/unset of those never calls them); other methods none.
func TestDataflowPropertyMagic(t *testing.T) {
	fs := lowerSrc(t, `<?php
class A {
    public $x = 1, $y;
    var $v;
    private $p;
    protected static $s;
    function __construct(public $c, private $d) {}
    function __isset($n) { return true; }
    function __unset($n) {}
    function other() {}
}
class B { function __ISSET($n) {} }
`)
	want := map[string][]string{"__construct": nil, "__isset": {"c", "v", "x", "y"}, "__unset": {"c", "v", "x", "y"}, "other": nil, "__ISSET": {}}
	for _, f := range fs[1:] {
		w, ok := want[f.Name]
		if !ok {
			t.Errorf("unexpected function %q", f.Name)
			continue
		}
		if (w == nil) != (f.Public == nil) || strings.Join(w, ",") != strings.Join(f.Public, ",") {
			t.Errorf("%s: public %q, want %q", f.Name, f.Public, w)
		}
	}
}

// TestDataflowControlDependence: every node records the innermost condition
// it runs under and every condition its own and what it reads
// (Func.DumpCtrl): nested ifs, an elseif chain, a guard that returns
// (what follows is under it), loops with their back edge, a ternary's value,
// match arms and switch cases.
func TestDataflowControlDependence(t *testing.T) {
	fs := lowerSrc(t, `<?php
function f($a, $b, $xs) {
    if (!$a) {
        return null;
    }
    $r = 1;
    if ($b > 2) {
        $r = $a;
    } elseif ($b) {
        $r = 2;
    } else {
        $r = 3;
    }
    while ($r < 10) { $r = $r + $b; }
    foreach ($xs as $x) { $s = $x; }
    $t = $b ? $a : 0;
    $m = match ($a) { 1 => $b, default => 0 };
    switch ($b) { case 1: $u = 1; break; default: $u = 2; }
    return $r;
}`)
	got := fs[1].DumpCtrl()
	for _, w := range []string{
		"c1 L3 if <- 0:operand", "c2 L7 if under c1 <- 1:operand", "c3 L9 elseif under c2 <- 1:assign",
		"c4 L14 while under c1 <- 5:operand 6:operand 7:operand 8:operand", "c5 L15 foreach under c1 <- 2:operand",
		"c6 L16 ?: under c1 <- 1:assign", "c7 L17 match under c1 <- 0:assign", "c8 L17 match arm under c7 <- 0:assign",
		"c10 L18 switch under c1 <- 1:assign", "c11 L18 case under c10 <- 1:assign",
		"n3 c1", "n4 c1", "n5 c2", "n6 c3", "n7 c3", "n8 c4", "n9 c5", "n10 c5", "n11 c6", "n12 c8", "n13 c11", "n14 c10", "n15 c1",
	} {
		if !strings.Contains(got, w+"\n") {
			t.Errorf("missing %q in\n%s", w, got)
		}
	}
	if strings.Contains(got, "n0 ") || strings.Contains(got, "n2 ") {
		t.Errorf("a parameter under a condition:\n%s", got)
	}
	// a function without conditions has none
	fs = lowerSrc(t, "<?php\nfunction g($a) { $b = $a; return $b; }\n")
	if len(fs[1].Conds) != 0 || fs[1].DumpCtrl() != "" {
		t.Errorf("conditions in straight-line code: %q", fs[1].DumpCtrl())
	}
}

// TestFT13_LoweringIsDeterministic: a lowering that reads every variable
// (`${$n}` of a computed name, compact() of a computed name) gives the same
// bytes on every run, so a summary's input, which covers them, is stable.
func TestFT13_LoweringIsDeterministic(t *testing.T) {
	src := `<?php
function f($n, $p) {
	$a = 1; $b = 2; $c = 3; $d = 4; $e = 5; $g = 6; $h = 7; $i = 8;
	if (!empty(${$n})) { $GLOBALS[${'cur' . $n}] = ${$n}[$p]; }
	return compact($n);
}
`
	first := string(dataflow.Encode(lowerSrc(t, src)))
	for range 20 {
		if got := string(dataflow.Encode(lowerSrc(t, src))); got != first {
			t.Fatal("two lowerings of the same source differ")
		}
	}
}
