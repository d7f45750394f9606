package php

import (
	"context"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/ragraf/ragraf/internal/fact"
)

// schemaFacts renders the table and column nodes a file's domain walk finds.
func schemaFacts(t *testing.T, file string) []string {
	t.Helper()
	src, err := os.ReadFile(filepath.Join("testdata/schema", file))
	if err != nil {
		t.Fatal(err)
	}
	x, err := New()
	if err != nil {
		t.Fatal(err)
	}
	defer x.Close()
	res, err := x.File(context.Background(), file, src)
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, n := range res.Domain.Nodes {
		switch n.Kind {
		case fact.Table:
			s := "table " + n.Name + " " + n.Props["source"]
			if n.Props["partial"] == "true" {
				s += " partial"
			}
			if d := n.Props["dropped"]; d != "" {
				s += " dropped=" + d
			}
			got = append(got, s)
		case fact.Column:
			got = append(got, "column "+n.QName+" "+n.Props["type"]+" null="+n.Props["nullable"]+" key="+n.Props["key"]+" line="+strconv.Itoa(n.StartLine))
		}
	}
	sort.Strings(got)
	return got
}

// TestTablesFromApplicationCode_DoctrineSchemaAPI: a Doctrine migration
// written with the Schema API creates and alters tables like SQL does.
func TestTablesFromApplicationCode_DoctrineSchemaAPI(t *testing.T) {
	got := schemaFacts(t, "Version20240101.php")
	want := []string{
		"column other.ignored_here varchar(255) null=false key= line=23",
		"column wallabag_entry.id int null=false key=PRI line=13",
		"column wallabag_entry.title varchar(191) null=true key= line=14",
		"column wallabag_tag.slug varchar(255) null=false key= line=21",
		"column wallabag_user.locale varchar(255) null=false key= line=17",
		"table other doctrine_migration partial",
		"table wallabag_entry doctrine_migration",
		"table wallabag_tag doctrine_migration partial dropped=color:20",
		"table wallabag_user doctrine_migration partial",
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("schema facts (-want +got):\n%s", diff)
	}
}

// TestTablesFromApplicationCode_LaravelSchemaTable: Schema::table alters a
// table: the columns it adds, the ones it drops.
func TestTablesFromApplicationCode_LaravelSchemaTable(t *testing.T) {
	got := schemaFacts(t, "2024_01_01_alter_posts.php")
	want := []string{
		"column posts.subtitle varchar(255) null=true key= line=10",
		"table posts laravel_migration partial dropped=legacy:11,old:11",
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("schema facts (-want +got):\n%s", diff)
	}
}

// TestConfiguration_EventListeners: listener attributes and a subscriber's
// getSubscribedEvents() give event_listener entry points whose handles
// references name the method.
func TestConfiguration_EventListeners(t *testing.T) {
	src, err := os.ReadFile("testdata/schema/Listeners.php")
	if err != nil {
		t.Fatal(err)
	}
	x, err := New()
	if err != nil {
		t.Fatal(err)
	}
	defer x.Close()
	res, err := x.File(context.Background(), "Listeners.php", src)
	if err != nil {
		t.Fatal(err)
	}
	ev := map[string]string{}
	for _, n := range res.Domain.Nodes {
		if n.Kind == fact.EventListener {
			ev[n.ID] = n.QName
		}
	}
	var got []string
	for _, r := range res.Domain.Refs {
		if q, ok := ev[r.From]; ok && r.Kind == fact.RefHandles {
			got = append(got, q+" -> "+r.Name)
		}
	}
	sort.Strings(got)
	want := []string{
		`event Events::onFlush -> App\EventListener\FlushListener::onFlush`,
		`event KernelEvents::EXCEPTION -> App\EventListener\Subscriber::onException`,
		`event KernelEvents::RESPONSE -> App\EventListener\Subscriber::first`,
		`event KernelEvents::RESPONSE -> App\EventListener\Subscriber::second`,
		`event Symfony\Component\HttpKernel\Event\RequestEvent -> App\EventListener\LocaleListener::onRequest`,
		`event app.saved -> App\EventListener\Subscriber::onSaved`,
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("listeners (-want +got):\n%s", diff)
	}
}
