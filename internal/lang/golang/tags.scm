; Go tags (ragraf's own; tree-sitter's tags.scm, MIT, was read for the node
; names). Captures: package tags.

(function_declaration name: (identifier) @name) @def.function
(method_declaration
  receiver: (parameter_list
    (parameter_declaration
      type: [
        (type_identifier) @receiver
        (pointer_type (type_identifier) @receiver)
        (generic_type type: (type_identifier) @receiver)
        (pointer_type (generic_type type: (type_identifier) @receiver))
      ]))
  name: (field_identifier) @name) @def.method
(type_spec name: (type_identifier) @name type: (struct_type)) @def.struct
(type_spec name: (type_identifier) @name type: (interface_type)) @def.interface
(type_spec
  name: (type_identifier) @name
  type: [(type_identifier) (qualified_type) (function_type) (map_type) (slice_type)
         (array_type) (pointer_type) (channel_type) (generic_type)]) @def.type
(type_alias name: (type_identifier) @name) @def.type
(method_elem name: (field_identifier) @name) @def.method

(call_expression function: (identifier) @name) @call
(call_expression
  function: (selector_expression operand: (_) @recv field: (field_identifier) @name)) @call

(composite_literal type: (type_identifier) @name) @new
(composite_literal
  type: (qualified_type package: (package_identifier) @recv name: (type_identifier) @name)) @new

(import_spec name: (_)? @import.alias path: (_) @import.source) @import

(type_identifier) @typeref
(qualified_type package: (package_identifier) @recv name: (type_identifier) @name) @typeref
