; Tags shared by JavaScript and TypeScript (ragraf's own; tree-sitter's
; tags.scm, MIT, was read for the node names). Captures: package tags.

(function_declaration name: (identifier) @name) @def.function
(generator_function_declaration name: (identifier) @name) @def.function
(method_definition name: (_) @name) @def.method

(variable_declarator
  name: (identifier) @name
  value: [(arrow_function) (function_expression) (generator_function)]) @def.function

(variable_declarator
  name: (identifier) @name
  value: (class)) @def.class

(assignment_expression
  left: (member_expression property: (property_identifier) @name)
  right: [(arrow_function) (function_expression)]) @def.function

(pair
  key: (property_identifier) @name
  value: [(arrow_function) (function_expression)]) @def.function

(call_expression function: (identifier) @name) @call
(call_expression
  function: (member_expression
    object: (_) @recv
    property: [(property_identifier) (private_property_identifier)] @name)) @call

(new_expression constructor: [(identifier) (member_expression)] @name) @new

(import_statement
  (import_clause (identifier) @import.default)
  source: (string) @import.source) @import
(import_statement
  (import_clause (namespace_import (identifier) @import.alias))
  source: (string) @import.source) @import
(import_statement
  (import_clause (named_imports (import_specifier name: (_) @import.name alias: (_)? @import.alias)))
  source: (string) @import.source) @import
(variable_declarator
  name: (identifier) @import.alias
  value: (call_expression
    function: (identifier) @_require
    arguments: (arguments . (string) @import.source))
  (#eq? @_require "require")) @import

(variable_declarator
  name: (identifier) @name
  value: (new_expression constructor: [(identifier) (member_expression)] @var.type)) @var
