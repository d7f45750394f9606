; C tags (ragraf's own; tree-sitter's tags.scm, MIT, was read for the node
; names). Captures: package tags.

(function_definition
  declarator: (function_declarator declarator: (identifier) @name)) @def.function
(function_definition
  declarator: (pointer_declarator declarator: (function_declarator declarator: (identifier) @name))) @def.function
(struct_specifier name: (type_identifier) @name body: (_)) @def.struct
(union_specifier name: (type_identifier) @name body: (_)) @def.union
(enum_specifier name: (type_identifier) @name body: (_)) @def.enum
(type_definition declarator: (type_identifier) @name) @def.type

(call_expression function: (identifier) @name) @call
(call_expression function: (field_expression argument: (_) @recv field: (field_identifier) @name)) @call

(type_identifier) @typeref
