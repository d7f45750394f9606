; JavaScript tags beside common.scm.

(class_declaration name: (identifier) @name) @def.class
(class_heritage [(identifier) (member_expression)] @extends)
(field_definition
  property: (property_identifier) @name
  value: [(arrow_function) (function_expression)]) @def.method
