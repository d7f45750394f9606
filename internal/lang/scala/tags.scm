; Scala tags (ragraf's own; the grammar's tags.scm, MIT, was read for the
; node names). Captures: package tags.

(class_definition name: (identifier) @name) @def.class
(object_definition name: (identifier) @name) @def.object
(trait_definition name: (identifier) @name) @def.trait
(enum_definition name: (identifier) @name) @def.enum
(function_definition name: (identifier) @name) @def.function
(function_declaration name: (identifier) @name) @def.function
(type_definition name: (type_identifier) @name) @def.type

(extends_clause [(type_identifier) (generic_type)] @extends)

(call_expression function: (identifier) @name) @call
(call_expression function: (field_expression value: (_) @recv field: (identifier) @name)) @call
(instance_expression [(type_identifier) (generic_type)] @name) @new
