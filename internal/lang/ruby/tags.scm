; Ruby tags (ragraf's own; tree-sitter's tags.scm, MIT, was read for the
; node names). Captures: package tags.

(class name: [(constant) (scope_resolution name: (_))] @name) @def.class
(module name: [(constant) (scope_resolution name: (_))] @name) @def.module
(method name: (_) @name) @def.method
(singleton_method name: (_) @name) @def.method

(class superclass: (superclass [(constant) (scope_resolution)] @extends))

(call !receiver method: (identifier) @name) @call
(call receiver: (_) @recv method: (identifier) @name) @call
(call receiver: [(constant) (scope_resolution)] @name method: (identifier) @_new (#eq? @_new "new")) @new
