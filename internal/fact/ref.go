// This file defines Ref, a reference found in one file and not yet linked to
// its target, and Unresolved, a reference that stayed unlinked. Language
// extractors emit Refs; package resolve links them across files.

package fact

import "github.com/ragraf/ragraf/internal/typ"

// RefKind names how a reference uses its target.
type RefKind string

// Reference kinds, each declared here once for the front ends that emit it
// and package resolve that reads it. Names are fully qualified
// without a leading backslash; member kinds carry the member name in Name and
// the class or receiver in Recv.
const (
	RefExtends     RefKind = "extends"      // class or interface parent; From is the class
	RefImplements  RefKind = "implements"   // From is the class or enum
	RefUsesTrait   RefKind = "uses_trait"   // From is the class or trait
	RefNew         RefKind = "new"          // new C
	RefStaticCall  RefKind = "static_call"  // C::m(); Recv is the class descriptor
	RefStaticProp  RefKind = "static_prop"  // C::$p
	RefClassConst  RefKind = "class_const"  // C::K (Name "class" for C::class is not emitted; see RefClassName)
	RefClassName   RefKind = "class_name"   // C::class and static class names in call position
	RefCall        RefKind = "call"         // f(); Alt is the global fallback of an unqualified name
	RefMethodCall  RefKind = "method_call"  // $x->m(); Recv is the receiver descriptor ("" unknown)
	RefPropFetch   RefKind = "prop_fetch"   // $x->p
	RefType        RefKind = "type"         // type hint of a parameter, return or property
	RefDocType     RefKind = "doc_type"     // class named in a PHPDoc type
	RefInstanceof  RefKind = "instanceof"   // $x instanceof C
	RefCatch       RefKind = "catch"        // catch (C $e)
	RefAttribute   RefKind = "attribute"    // #[C]
	RefConst       RefKind = "const"        // global constant; Alt is the fallback
	RefInclude     RefKind = "include"      // include/require; Name is the expression as written, Include the path expression
	RefDynamicCall RefKind = "dynamic_call" // $f(), $o->$m(), call_user_func*, callbacks; Name is the callee name when known
	RefImportClass RefKind = "import_class" // use A\B
	RefImportFunc  RefKind = "import_function"
	RefImportConst RefKind = "import_const"
	RefDefine      RefKind = "define" // define('NAME', v); Include is v as an include path expression

	// Declaration facts: not uses, but what the resolver needs to type
	// receivers across files. They never become edges or unresolved rows.
	RefReturns     RefKind = "returns"      // From is a function or method; Recv is its return type descriptor
	RefPropType    RefKind = "prop_type"    // From is a property; Recv is its declared type descriptor ("" when it names no class)
	RefDocMethod   RefKind = "doc_method"   // @method on a class; Name is the method, Recv its return type
	RefDocProperty RefKind = "doc_property" // @property on a class; Name is the property, Recv its type
	RefMixin       RefKind = "mixin"        // @mixin C on a class
	RefTraitAlias  RefKind = "trait_alias"  // `T::m as n`; Name is the alias, Alias is "\\T::m" or "m"

	// RefGlobal gives global variable Name (without $) the type descriptor
	// Recv: an assignment at file scope, through `global` or $GLOBALS, or an
	// `@global Type $name` tag; `$name` descriptors evaluate to the union.
	RefGlobal RefKind = "global_type"
	// RefPropAssign is one assignment to property Name (without $) in a
	// method of the class From; Recv is the assigned value's descriptor, ""
	// when unknown.
	RefPropAssign RefKind = "prop_assign"
	// RefMention is a function or member named without being used (a PHPDoc
	// @see, a callable array, function_exists). Recv is "" for a function
	// (Name, with the global fallback in Alt) and the class descriptor for a
	// member or, with Name "", for the class itself; a member Name ends in
	// "()" for a method, starts with "$" for a property and is a constant
	// otherwise. Resolve links it with a references edge when the target
	// exists and drops it otherwise.
	RefMention RefKind = "mention"
	// RefImport is one name a file binds by importing a module (JavaScript,
	// TypeScript, Python, Go and the other tree-parsed languages): Name is
	// the local name, Alt the name the module exports ("*" for the module
	// itself, "default" for a default export), Recv the module as written.
	RefImport RefKind = "import"
)

// Reference kinds of the domain: facts resolve turns into queries,
// references_table and handles edges; the other rules of resolve skip them.
const (
	// RefSQLTable is a table touched by a parsed SQL string. Name is the
	// table (known prefix stripped); Props: op, columns (comma-separated),
	// inferred ("true" when the name came from a PHP expression), stmt_op.
	RefSQLTable RefKind = "sql_table"
	// RefSQLProblem is a SQL string that could not be parsed. Props: reason, text.
	RefSQLProblem RefKind = "sql_problem"
	// RefSQLDynamic is a parsed SQL string whose table is a PHP expression
	// that the file cannot evaluate. Name is the expression.
	RefSQLDynamic RefKind = "sql_dynamic"
	// RefTableUse is a query builder or model naming a table. Name is the
	// table; Props: via (the API), op, inferred.
	RefTableUse RefKind = "table_use"
	// RefHandles links an entry point node (From) to its handler. Name is the
	// handler as "Class::method", "Class" (invokable or command class) or a
	// function name; Props: raw (the expression as written), short ("true"
	// when the class name was written unqualified without an import).
	RefHandles RefKind = "handles"
	// RefHookCallback is a WordPress add_action/add_filter: Name is the hook,
	// Props handler and raw. Resolve uses it to reach the handler of a cron
	// event (wp_schedule_event names a hook).
	RefHookCallback RefKind = "hook_callback"
	// RefHookFire is a WordPress do_action/apply_filters (and their
	// _ref_array and _deprecated forms) with a literal hook: Name is the
	// hook, From the enclosing function. Resolve links the function to every
	// callback registered for the hook (calls, derived, props via).
	RefHookFire RefKind = "hook_fire"
	// RefContainerBind is a Laravel container binding
	// ($this->app->bind/singleton/scoped/instance(I::class, C::class)): Name is
	// the bound interface or class, Props class the implementation. The
	// build lets a call through the interface reach the class's method.
	RefContainerBind RefKind = "container_bind"
)

// Ref is one use of a name at path:line, from the innermost enclosing node.
// Extractors fill what the file alone can tell; resolve does the rest.
type Ref struct {
	Kind RefKind
	From string // id of the enclosing node (function, method, class or file)
	Path string
	Line int
	Col  int // 0-based byte column of the name at the use site
	// Name is the target as far as the file can resolve it: a fully qualified
	// class, function or constant name, or a member name for member access.
	Name string
	// Alt is a second candidate PHP tries when Name is not defined (the global
	// fallback of an unqualified function or constant).
	Alt string
	// Recv describes the receiver or type: a type descriptor that package
	// resolve evaluates (types.go there).
	Recv typ.Desc
	// Include is the path expression of an include (RefInclude) or of a
	// define's value (RefDefine): quoted literals and constant names joined
	// by " . ", as resolve/includes.go evaluates it; "" when not static.
	Include string
	// Alias is the method a trait alias (RefTraitAlias) renames: `\T::m`
	// or, without a trait, `m`.
	Alias string
	// Qualifier is what a tags-query front end (package lang/tags) read
	// beside the name, as written: a call's receiver expression ("this", a
	// module binding), a type's qualifier, an import's source. It types
	// nothing; resolve's tagged rules match it against the file's bindings.
	Qualifier string
	// Props carries extractor-specific detail.
	Props map[string]string
}

// PropAccess, in a property fetch's Props, says the property is written
// (AccessWrite: `$o->p = …`) or read and written (AccessReadWrite: `$o->p .=
// …`); a fetch without it is a read.
const (
	PropAccess      = "access"
	AccessWrite     = "write"
	AccessReadWrite = "readwrite"
)

// PropRelativeScope, in a static call's or a new's Props, says it was
// written with self::, static:: or parent::.
const PropRelativeScope = "relative_scope"

// PropAnonMethod, in a method call's Props, says it calls a method that an
// anonymous class declares on $this: the index holds no node for it.
const PropAnonMethod = "anon_method"

// PropReceiverGlobal, in a method call's Props, names the global variable
// (without $) the call is made on: one the function declares `global`.
const PropReceiverGlobal = "receiver_global"

// Unresolved is a reference that names no known node; it stays visible with
// its kind, name and place.
type Unresolved struct {
	ID     string
	Kind   RefKind
	Name   string
	From   string
	Path   string
	Line   int
	Reason string
}
