; TypeScript and TSX tags beside javascript/common.scm (ragraf's own;
; tree-sitter's tags.scm, MIT, was read for the node names).

(class_declaration name: (type_identifier) @name) @def.class
(abstract_class_declaration name: (type_identifier) @name) @def.class
(interface_declaration name: (type_identifier) @name) @def.interface
(enum_declaration name: (identifier) @name) @def.enum
(type_alias_declaration name: (type_identifier) @name) @def.type
(internal_module name: (_) @name) @def.module
(module name: (_) @name) @def.module
(function_signature name: (identifier) @name) @def.function
(method_signature name: (_) @name) @def.method
(abstract_method_signature name: (_) @name) @def.method
(public_field_definition
  name: (property_identifier) @name
  value: [(arrow_function) (function_expression)]) @def.method

(class_heritage (extends_clause value: (_) @extends))
(class_heritage (implements_clause [(type_identifier) (generic_type) (nested_type_identifier)] @implements))
(extends_type_clause type: (_) @extends)

(type_identifier) @typeref

(variable_declarator
  name: (identifier) @name
  type: (type_annotation [(type_identifier) (generic_type) (nested_type_identifier)] @var.type)) @var
(required_parameter
  pattern: (identifier) @name
  type: (type_annotation [(type_identifier) (generic_type) (nested_type_identifier)] @var.type)) @var
(optional_parameter
  pattern: (identifier) @name
  type: (type_annotation [(type_identifier) (generic_type) (nested_type_identifier)] @var.type)) @var
