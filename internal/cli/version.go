// This file defines `ragraf version`: ragraf's version and its components' (NFR-7).

package cli

import (
	"fmt"
	"maps"
	"slices"

	"github.com/spf13/cobra"

	"github.com/ragraf/ragraf/internal/corpus"
	"github.com/ragraf/ragraf/internal/facade"
	"github.com/ragraf/ragraf/internal/store/sqlitedb"
	"github.com/ragraf/ragraf/internal/version"
)

func newVersionCmd(io IO) *cobra.Command {
	var asJSON bool
	cmd := &cobra.Command{
		Use:   "version",
		Short: "Print the versions of ragraf, Go, SQLite, tree-sitter and each grammar",
		Args:  cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			sv, err := sqlitedb.LibraryVersion(cmd.Context(), sqlitedb.Portable)
			if err != nil {
				return err
			}
			nv, err := sqlitedb.LibraryVersion(cmd.Context(), sqlitedb.Native)
			if err != nil {
				return err
			}
			comps := version.Components(sv, nv)
			comps = append(comps, version.Component{Name: "russian questions", Version: russianLine(facade.Lexicon().Info())})
			for _, l := range slices.Sorted(maps.Keys(corpus.Unavailable)) {
				comps = append(comps, version.Component{Name: l + " grammar", Version: "unavailable: " + corpus.Unavailable[l]})
			}
			if asJSON {
				return writeJSON(io.Out, struct {
					Ragraf     string              `json:"ragraf"`
					Components []version.Component `json:"components"`
				}{version.Version, comps})
			}
			fmt.Fprintf(io.Out, "ragraf %s\n", version.Version)
			for _, c := range comps {
				fmt.Fprintf(io.Out, "  %-36s %s\n", c.Name, c.Version)
			}
			return nil
		},
	}
	cmd.Flags().BoolVar(&asJSON, "json", false, "print JSON")
	return cmd
}
