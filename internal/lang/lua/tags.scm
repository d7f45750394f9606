; Lua tags (ragraf's own; the grammar's tags.scm, MIT, was read for the
; node names). Captures: package tags.

(function_declaration name: (identifier) @name) @def.function
(function_declaration
  name: (dot_index_expression table: (_) @receiver field: (identifier) @name)) @def.function
(function_declaration
  name: (method_index_expression table: (_) @receiver method: (identifier) @name)) @def.method
(assignment_statement
  (variable_list . (identifier) @name)
  (expression_list . (function_definition))) @def.function
(assignment_statement
  (variable_list . (dot_index_expression table: (_) @receiver field: (identifier) @name))
  (expression_list . (function_definition))) @def.function
(field name: (identifier) @name value: (function_definition)) @def.function

(function_call name: (identifier) @name) @call
(function_call name: (dot_index_expression table: (_) @recv field: (identifier) @name)) @call
(function_call name: (method_index_expression table: (_) @recv method: (identifier) @name)) @call
