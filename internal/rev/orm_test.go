package rev

import (
	"context"
	"encoding/json"
	"path/filepath"
	"strings"
	"testing"

	"github.com/ragraf/ragraf/internal/config"
	"github.com/ragraf/ragraf/internal/resolve"
)

// TestORMIsASchemaSource: Doctrine mappings (attributes and annotations)
// and Eloquent models give ORM tables; the entity, its repository, its
// repository's query builder, DQL, getRepository and an Eloquent static
// call reach the table; a table only a query names is derived; and a
// column the entity declares that no migration creates is a conflict.
func TestORMIsASchemaSource(t *testing.T) {
	sql, _, g := domainFacts(t, filepath.Join("testdata", "orm"), config.Default())
	t.Log("\n" + strings.Join(sql, "\n"))
	have := map[string]bool{}
	for _, l := range sql {
		have[l] = true
	}
	for _, want := range []string{
		"references_table src/Entity/Post.php:9 App\\Entity\\Post  blog_post ",
		"references_table src/Entity/Post.php:18 App\\Entity\\Post::$title  title title",
		"references_table src/Entity/Post.php:9 App\\Repository\\PostRepository  blog_post ",
		"references_table src/Repository/PostRepository.php:19 App\\Repository\\PostRepository::findLatest select blog_post ",
		"references_table src/Repository/PostRepository.php:27 App\\Repository\\PostRepository::countTags select blog_tag ",
		"references_table src/Controller/BlogController.php:12 App\\Controller\\BlogController::tags  blog_tag ",
		"queries src/Controller/BlogController.php:17 App\\Controller\\BlogController::stats select page_views ",
		"references_table app/Models/Report.php:11 App\\Models\\Report::unpaid select invoices ",
		"references_table app/Models/Invoice.php:7 App\\Models\\Invoice  invoices ",
	} {
		if !have[want] {
			t.Errorf("missing: %s", want)
		}
	}
	raw, err := g.Meta(context.Background(), resolve.MetaSchemaConflicts)
	if err != nil {
		t.Fatal(err)
	}
	var cs []resolve.SchemaConflict
	if err := json.Unmarshal([]byte(raw), &cs); err != nil {
		t.Fatal(err)
	}
	got := map[string]bool{}
	for _, c := range cs {
		got[c.Table+"."+c.Column+" "+c.What] = true
	}
	t.Logf("conflicts %+v", cs)
	for _, want := range []string{"blog_post.summary missing_column", "invoices.paid_at missing_column", "invoices.total missing_column"} {
		if !got[want] {
			t.Errorf("conflict %q not reported", want)
		}
	}
	for _, no := range []string{"blog_post.published_at missing_column", "blog_post.author_id missing_column", "invoices.created_at missing_column"} {
		if got[no] {
			t.Errorf("conflict %q reported, the sources agree", no)
		}
	}
}
