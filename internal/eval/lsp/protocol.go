// This file holds the parts of the Language Server Protocol the evaluation
// sends and reads, as typed values: positions, the documents they are in and
// the parameters of initialize, didOpen, references and definition.

package lsp

import (
	"path/filepath"
	"unicode/utf16"
)

// position is a place in a document: a 0-based line and a column in UTF-16
// code units, as the protocol counts them.
type position struct {
	Line      int `json:"line"`
	Character int `json:"character"`
}

// positionAt is the position of byte column col of text, which is line ln
// (1-based) of its file.
func positionAt(ln int, text string, col int) position {
	return position{Line: ln - 1, Character: len(utf16.Encode([]rune(text[:col])))}
}

type textDocumentIdentifier struct {
	URI string `json:"uri"`
}

type textDocumentItem struct {
	URI        string `json:"uri"`
	LanguageID string `json:"languageId"`
	Version    int    `json:"version"`
	Text       string `json:"text"`
}

type didOpenParams struct {
	TextDocument textDocumentItem `json:"textDocument"`
}

// positionParams asks about one position of a document (definition).
type positionParams struct {
	TextDocument textDocumentIdentifier `json:"textDocument"`
	Position     position               `json:"position"`
}

type referenceContext struct {
	IncludeDeclaration bool `json:"includeDeclaration"`
}

type referenceParams struct {
	TextDocument textDocumentIdentifier `json:"textDocument"`
	Position     position               `json:"position"`
	Context      referenceContext       `json:"context"`
}

// docAt is the document of path (relative to root) at pos.
func docAt(root, path string, pos position) positionParams {
	return positionParams{TextDocument: textDocumentIdentifier{URI: fileURI(filepath.Join(root, filepath.FromSlash(path)))}, Position: pos}
}

// referencesAt asks for the uses of what is at pos in path, without its
// declaration.
func referencesAt(root, path string, pos position) referenceParams {
	d := docAt(root, path, pos)
	return referenceParams{TextDocument: d.TextDocument, Position: d.Position}
}

type workspaceFolder struct {
	URI  string `json:"uri"`
	Name string `json:"name"`
}

type initializeParams struct {
	ProcessID             *int               `json:"processId"`
	RootURI               string             `json:"rootUri"`
	RootPath              string             `json:"rootPath"`
	WorkspaceFolders      []workspaceFolder  `json:"workspaceFolders"`
	Capabilities          clientCapabilities `json:"capabilities"`
	InitializationOptions initOptions        `json:"initializationOptions"`
}

type clientCapabilities struct {
	Workspace struct {
		Configuration    bool `json:"configuration"`
		WorkspaceFolders bool `json:"workspaceFolders"`
	} `json:"workspace"`
	Window struct {
		WorkDoneProgress bool `json:"workDoneProgress"`
	} `json:"window"`
}

// initOptions are intelephense's: where it keeps its cache, and that it
// starts from none.
type initOptions struct {
	StoragePath string `json:"storagePath"`
	ClearCache  bool   `json:"clearCache"`
}
