; Rust tags (ragraf's own; tree-sitter's tags.scm, MIT, was read for the
; node names). Captures: package tags.

(struct_item name: (type_identifier) @name) @def.struct
(enum_item name: (type_identifier) @name) @def.enum
(union_item name: (type_identifier) @name) @def.union
(type_item name: (type_identifier) @name) @def.type
(trait_item name: (type_identifier) @name) @def.trait
(mod_item name: (identifier) @name) @def.module
(function_item name: (identifier) @name) @def.function
(function_signature_item name: (identifier) @name) @def.method
(impl_item
  type: [(type_identifier) @receiver (generic_type type: (type_identifier) @receiver)]
  body: (declaration_list (function_item name: (identifier) @name) @def.method))
(impl_item
  trait: [(type_identifier) (scoped_type_identifier) (generic_type)] @implements
  type: [(type_identifier) @receiver (generic_type type: (type_identifier) @receiver)])

(call_expression function: (identifier) @name) @call
(call_expression function: (field_expression value: (_) @recv field: (field_identifier) @name)) @call
(call_expression function: (scoped_identifier path: (_) @recv name: (identifier) @name)) @call
(struct_expression name: (type_identifier) @name) @new

(type_identifier) @typeref
