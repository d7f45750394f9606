; Bash tags (ragraf's own; tree-sitter's tags.scm, MIT, was read for the
; node names). Captures: package tags.

(function_definition name: (word) @name) @def.function
(command name: (command_name (word) @name)) @call
