// This file maps file names to language names. Walk (walk.go) compares them
// with config.Languages to decide what is indexed.

package corpus

import (
	"path"
	"strings"
)

// langByExt maps a lower-case extension to a language name. ".rst" reports as
// "markdown": both are prose documentation handled by the docs extractor.
var langByExt = map[string]string{
	".php": "php", ".phtml": "php", ".inc": "php", ".php3": "php", ".php4": "php",
	".php5": "php", ".php7": "php", ".php8": "php", ".phps": "php", ".module": "php",
	".md": "markdown", ".markdown": "markdown", ".mdown": "markdown", ".rst": "markdown",
	".sql": "sql",
	".js":  "javascript", ".mjs": "javascript", ".cjs": "javascript", ".jsx": "javascript",
	".ts": "typescript", ".tsx": "typescript", ".mts": "typescript", ".cts": "typescript", ".py": "python", ".go": "go", ".rb": "ruby",
	".java": "java", ".c": "c", ".h": "c", ".cpp": "cpp", ".cc": "cpp", ".hpp": "cpp",
	".cs": "csharp", ".rs": "rust", ".sh": "bash", ".bash": "bash",
	".cxx": "cpp", ".hh": "cpp", ".hxx": "cpp", ".kt": "kotlin", ".kts": "kotlin", ".swift": "swift",
	".scala": "scala", ".sc": "scala", ".lua": "lua",
	".css": "css", ".scss": "scss", ".sass": "sass", ".less": "less",
	".html": "html", ".htm": "html", ".twig": "twig", ".vue": "vue", ".svelte": "svelte",
	".xml": "xml", ".json": "json", ".yml": "yaml", ".yaml": "yaml", ".toml": "toml",
	".ini": "ini", ".txt": "text", ".csv": "csv", ".po": "gettext", ".pot": "gettext",
}

// Unavailable names the languages whose files are recognised but cannot be
// read by this build, with the reason; Walk skips their files with it and
// `ragraf version` lists it.
var Unavailable = map[string]string{
	"swift": "no grammar builds here: the maintained Swift grammar (alex-pinkus/tree-sitter-swift) publishes " +
		"no Go module the module proxy serves and does not commit its generated parser.c",
}

// binaryExt lists extensions of formats that are binary by construction; Walk
// reports them as skipped "binary" without opening them.
var binaryExt = map[string]bool{
	".png": true, ".jpg": true, ".jpeg": true, ".gif": true, ".webp": true, ".ico": true,
	".bmp": true, ".tif": true, ".tiff": true, ".avif": true, ".woff": true, ".woff2": true,
	".ttf": true, ".otf": true, ".eot": true, ".pdf": true, ".zip": true, ".gz": true,
	".tgz": true, ".bz2": true, ".xz": true, ".7z": true, ".rar": true, ".tar": true,
	".jar": true, ".phar": true, ".mo": true, ".so": true, ".dll": true, ".exe": true,
	".dylib": true, ".o": true, ".a": true, ".class": true, ".pyc": true, ".mp3": true,
	".mp4": true, ".ogg": true, ".wav": true, ".webm": true, ".mov": true, ".avi": true,
	".sqlite": true, ".db": true, ".psd": true,
}

// DetectLang returns the language of path by its extension: "php", "markdown"
// (also for .rst), "sql", "twig", "blade" (*.blade.php), or another language's name such as "javascript",
// "css" or "html"; "" when the extension is unknown or binary.
func DetectLang(p string) string {
	lp := strings.ToLower(p)
	if strings.HasSuffix(lp, ".blade.php") {
		return "blade" // a Blade template, not PHP
	}
	return langByExt[path.Ext(lp)]
}

func isBinaryExt(p string) bool {
	return binaryExt[strings.ToLower(path.Ext(p))]
}
