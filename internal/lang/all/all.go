// Package all is the registry of every language front end. A new language is
// a folder under internal/lang with a lang.FrontEnd, and one line here.
package all

import (
	"github.com/ragraf/ragraf/internal/lang"
	"github.com/ragraf/ragraf/internal/lang/bash"
	"github.com/ragraf/ragraf/internal/lang/blade"
	"github.com/ragraf/ragraf/internal/lang/c"
	"github.com/ragraf/ragraf/internal/lang/cpp"
	"github.com/ragraf/ragraf/internal/lang/csharp"
	"github.com/ragraf/ragraf/internal/lang/golang"
	"github.com/ragraf/ragraf/internal/lang/java"
	"github.com/ragraf/ragraf/internal/lang/javascript"
	"github.com/ragraf/ragraf/internal/lang/kotlin"
	"github.com/ragraf/ragraf/internal/lang/lua"
	"github.com/ragraf/ragraf/internal/lang/markdown"
	"github.com/ragraf/ragraf/internal/lang/php"
	"github.com/ragraf/ragraf/internal/lang/python"
	"github.com/ragraf/ragraf/internal/lang/ruby"
	"github.com/ragraf/ragraf/internal/lang/rust"
	"github.com/ragraf/ragraf/internal/lang/scala"
	"github.com/ragraf/ragraf/internal/lang/sql"
	"github.com/ragraf/ragraf/internal/lang/twig"
	"github.com/ragraf/ragraf/internal/lang/typescript"
)

// Registry returns the front ends by language name.
func Registry() lang.Registry {
	return lang.NewRegistry(
		php.FrontEnd{},
		markdown.FrontEnd{},
		sql.FrontEnd{},
		javascript.New(),
		typescript.New(),
		python.New(),
		golang.New(),
		twig.FrontEnd{},
		blade.FrontEnd{},
		java.New(),
		csharp.New(),
		ruby.New(),
		rust.New(),
		c.New(),
		cpp.New(),
		bash.New(),
		kotlin.New(),
		scala.New(),
		lua.New(),
	)
}
