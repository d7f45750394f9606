; C# tags (ragraf's own; tree-sitter's tags.scm, MIT, was read for the node
; names). Captures: package tags.

(class_declaration name: (identifier) @name) @def.class
(interface_declaration name: (identifier) @name) @def.interface
(struct_declaration name: (identifier) @name) @def.struct
(enum_declaration name: (identifier) @name) @def.enum
(record_declaration name: (identifier) @name) @def.record
(method_declaration name: (identifier) @name) @def.method
(constructor_declaration name: (identifier) @name) @def.method
(namespace_declaration name: (_) @name) @def.module

(class_declaration (base_list [(identifier) (generic_name) (qualified_name)] @extends))
(struct_declaration (base_list [(identifier) (generic_name) (qualified_name)] @implements))
(interface_declaration (base_list [(identifier) (generic_name) (qualified_name)] @extends))

(invocation_expression function: (identifier) @name) @call
(invocation_expression
  function: (member_access_expression expression: (_) @recv name: (identifier) @name)) @call
(object_creation_expression type: [(identifier) (generic_name) (qualified_name)] @name) @new

(parameter type: (identifier) @typeref)
(variable_declaration type: (identifier) @typeref)
(method_declaration returns: (identifier) @typeref)
(property_declaration type: (identifier) @typeref)

(file_scoped_namespace_declaration name: (_) @import.source) @package
(using_directive name: (identifier) @import.alias
  [(qualified_name qualifier: (_) @import.source name: (_) @import.name)]) @import
(using_directive !name [(identifier) (qualified_name)] @import.source) @import

(variable_declaration type: [(identifier) (generic_name) (qualified_name)] @var.type
  (variable_declarator name: (identifier) @name)) @var
(parameter type: [(identifier) (generic_name) (qualified_name)] @var.type name: (identifier) @name) @var
