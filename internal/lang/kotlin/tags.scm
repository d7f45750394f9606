; Kotlin tags (ragraf's own). Captures: package tags.

(class_declaration "interface" name: (identifier) @name) @def.interface
(class_declaration name: (identifier) @name) @def.class
(object_declaration name: (identifier) @name) @def.object
(function_declaration name: (identifier) @name) @def.function

(call_expression (identifier) @name) @call
(call_expression (navigation_expression (_) @recv (identifier) @name .)) @call

(delegation_specifier (constructor_invocation (user_type) @extends))
(delegation_specifier (user_type) @implements)
(delegation_specifier (explicit_delegation (user_type) @implements))
