; C++ tags (ragraf's own; tree-sitter's tags.scm, MIT, was read for the node
; names). Captures: package tags.

(function_definition
  declarator: (function_declarator declarator: [(identifier) (field_identifier) (operator_name) (destructor_name)] @name)) @def.function
(function_definition
  declarator: (pointer_declarator declarator: (function_declarator declarator: (identifier) @name))) @def.function
(function_definition
  declarator: (reference_declarator (function_declarator declarator: (identifier) @name))) @def.function
(function_definition
  declarator: (function_declarator
    declarator: (qualified_identifier scope: (namespace_identifier) @receiver name: [(identifier) (destructor_name) (operator_name)] @name))) @def.method
(field_declaration_list
  (declaration declarator: (function_declarator declarator: [(field_identifier) (identifier)] @name)) @def.method)
(field_declaration_list
  (field_declaration declarator: (function_declarator declarator: (field_identifier) @name)) @def.method)
(class_specifier name: (type_identifier) @name body: (_)) @def.class
(struct_specifier name: (type_identifier) @name body: (_)) @def.struct
(union_specifier name: (type_identifier) @name body: (_)) @def.union
(enum_specifier name: (type_identifier) @name body: (_)) @def.enum
(namespace_definition name: (_) @name) @def.module
(type_definition declarator: (type_identifier) @name) @def.type
(alias_declaration name: (type_identifier) @name) @def.type

(base_class_clause [(type_identifier) (qualified_identifier) (template_type)] @extends)

(call_expression function: (identifier) @name) @call
(call_expression function: (qualified_identifier scope: (_) @recv name: (identifier) @name)) @call
(call_expression function: (field_expression argument: (_) @recv field: (field_identifier) @name)) @call
(new_expression type: [(type_identifier) (qualified_identifier) (template_type)] @name) @new

(type_identifier) @typeref
