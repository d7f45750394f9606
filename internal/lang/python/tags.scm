; Python tags (ragraf's own; tree-sitter's tags.scm, MIT, was read for the
; node names). Captures: package tags.

(class_definition name: (identifier) @name) @def.class
(class_definition
  superclasses: (argument_list [(identifier) (attribute)] @extends))
(function_definition name: (identifier) @name) @def.function

(function_definition body: (block . (expression_statement (string) @doc)))
(class_definition body: (block . (expression_statement (string) @doc)))

(call function: (identifier) @name) @call
(call function: (attribute object: (_) @recv attribute: (identifier) @name)) @call

(import_statement name: (dotted_name) @import.source) @import
(import_statement
  name: (aliased_import name: (dotted_name) @import.source alias: (identifier) @import.alias)) @import
(import_from_statement
  module_name: (_) @import.source
  name: (dotted_name) @import.name) @import
(import_from_statement
  module_name: (_) @import.source
  name: (aliased_import name: (dotted_name) @import.name alias: (identifier) @import.alias)) @import

(type (identifier) @typeref)
