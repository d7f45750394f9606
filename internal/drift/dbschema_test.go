package drift

import (
	"context"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/ragraf/ragraf/internal/config"
)

const baseSQL = `CREATE TABLE orders (
  id INT NOT NULL PRIMARY KEY,
  total INT NOT NULL,
  note TEXT
);
`

const alterSQL = `ALTER TABLE orders ADD COLUMN status VARCHAR(20) NOT NULL;
`

const couponsPHP = `<?php
return new class {
    public function up(): void
    {
        Schema::create('coupons', function (Blueprint $table) {
            $table->id();
            $table->string('code', 32)->unique();
        });
    }
};
`

// A changed schema file or PHP migration gives schema_change deltas naming
// table and column beside its modify delta (FT-30), and only those files.
func TestFT30_CompareSchemaChange(t *testing.T) {
	ctx := context.Background()
	root := t.TempDir()
	write(t, root, "db/schema.sql", baseSQL)
	write(t, root, "db/m1.sql", alterSQL)
	write(t, root, "db/2024_create_coupons.php", couponsPHP)
	write(t, root, "src/Cart.php", cartPHP)
	cfg := config.Default()
	cfg.Languages = append(cfg.Languages, "sql")
	src := indexDir(t, root)

	write(t, root, "db/schema.sql", `CREATE TABLE orders (
  id INT NOT NULL PRIMARY KEY,
  total BIGINT NOT NULL
);
CREATE TABLE refunds (id INT);
`)
	write(t, root, "db/m1.sql", alterSQL+"ALTER TABLE orders ADD COLUMN paid_at DATETIME NULL;\n")
	write(t, root, "db/2024_create_coupons.php", `<?php
return new class {
    public function up(): void
    {
        Schema::create('coupons', function (Blueprint $table) {
            $table->id();
            $table->string('code', 32)->unique();
            $table->integer('percent_off');
        });
    }
};
`)
	write(t, root, "src/Cart.php", cartPHP+"\n// touched\n")
	ds, err := Compare(ctx, src, root, cfg)
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, d := range ds {
		if d.Kind == KindSchemaChange {
			got = append(got, d.Path+": "+d.Note)
		}
	}
	want := []string{
		"db/2024_create_coupons.php: column coupons.percent_off added (int)",
		"db/m1.sql: column orders.paid_at added (datetime)",
		"db/schema.sql: column orders.note removed (text)",
		"db/schema.sql: column orders.total changed type (int -> bigint)",
		"db/schema.sql: table refunds added",
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("schema_change deltas (-want +got):\n%s", diff)
	}
	for _, d := range ds {
		if d.Kind == KindSchemaChange && d.Note == "column orders.note removed (text)" && len(d.Nodes) != 1 {
			t.Errorf("removed column names nodes %v, want its column node", d.Nodes)
		}
	}
	again, err := Compare(ctx, src, root, cfg)
	if err != nil {
		t.Fatal(err)
	}
	if !cmp.Equal(keys(ds), keys(again)) {
		t.Errorf("second compare gave other dedup keys:\n%v\n%v", keys(ds), keys(again))
	}
}

func keys(ds []Delta) []string {
	var out []string
	for _, d := range ds {
		out = append(out, d.DedupKey)
	}
	return out
}
