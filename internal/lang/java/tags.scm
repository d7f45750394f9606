; Java tags (ragraf's own; tree-sitter's tags.scm, MIT, was read for the
; node names). Captures: package tags.

(class_declaration name: (identifier) @name) @def.class
(interface_declaration name: (identifier) @name) @def.interface
(enum_declaration name: (identifier) @name) @def.enum
(record_declaration name: (identifier) @name) @def.record
(annotation_type_declaration name: (identifier) @name) @def.interface
(method_declaration name: (identifier) @name) @def.method
(constructor_declaration name: (identifier) @name) @def.method

(superclass [(type_identifier) (generic_type) (scoped_type_identifier)] @extends)
(super_interfaces (type_list [(type_identifier) (generic_type) (scoped_type_identifier)] @implements))
(extends_interfaces (type_list [(type_identifier) (generic_type) (scoped_type_identifier)] @extends))

(method_invocation !object name: (identifier) @name) @call
(method_invocation object: (_) @recv name: (identifier) @name) @call
(object_creation_expression type: [(type_identifier) (generic_type) (scoped_type_identifier)] @name) @new

(type_identifier) @typeref

(package_declaration [(identifier) (scoped_identifier)] @import.source) @package
(import_declaration (scoped_identifier scope: (_) @import.source name: (identifier) @import.name)) @import
(import_declaration [(identifier) (scoped_identifier)] @import.source (asterisk)) @import

(local_variable_declaration type: [(type_identifier) (generic_type) (scoped_type_identifier)] @var.type
  declarator: (variable_declarator name: (identifier) @name)) @var
(formal_parameter type: [(type_identifier) (generic_type) (scoped_type_identifier)] @var.type name: (identifier) @name) @var
