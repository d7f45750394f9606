package facade

import (
	"encoding/json"
	"slices"
	"strings"
	"testing"
)

// rankFixture is a small application whose central entity is known: Post is
// used by every controller, the repository and the comment; Tag by two
// files; the Slug constraint only by an attribute on one of Post's
// properties, and it uses Post's neighbours itself (the shape that ranked a
// validator constraint first when rank went by what a node reaches).
var rankFixture = map[string]string{
	"src/Entity/Post.php": `<?php
namespace App\Entity;
use App\Validator\Slug;
class Post {
    #[Slug]
    private string $slug = '';
    public function getSlug(): string { return $this->slug; }
    public function getTitle(): string { return ''; }
}
`,
	"src/Entity/Tag.php": `<?php
namespace App\Entity;
class Tag {
    public function getName(): string { return ''; }
}
`,
	"src/Entity/Comment.php": `<?php
namespace App\Entity;
class Comment {
    private ?Post $post = null;
    public function getPost(): ?Post { return $this->post; }
}
`,
	"src/Validator/Slug.php": `<?php
namespace App\Validator;
use App\Util\Slugger;
use App\Util\Text;
class Slug {
    public function check(string $s): bool { return Slugger::slug(Text::trim($s)) === $s; }
}
`,
	"src/Util/Slugger.php": `<?php
namespace App\Util;
class Slugger { public static function slug(string $s): string { return $s; } }
`,
	"src/Util/Text.php": `<?php
namespace App\Util;
class Text { public static function trim(string $s): string { return $s; } }
`,
	"src/Repository/PostRepository.php": `<?php
namespace App\Repository;
use App\Entity\Post;
class PostRepository {
    public function find(int $id): ?Post { return new Post(); }
    public function save(Post $p): void { $p->getSlug(); }
}
`,
	"src/Controller/BlogController.php": `<?php
namespace App\Controller;
use App\Entity\Post;
use App\Entity\Tag;
class BlogController {
    public function show(Post $post, Tag $tag): string { return $post->getTitle() . $tag->getName(); }
}
`,
	"src/Controller/AdminController.php": `<?php
namespace App\Controller;
use App\Entity\Post;
use App\Entity\Tag;
class AdminController {
    public function edit(Post $post, Tag $tag): string { return $post->getSlug() . $tag->getName(); }
    public function create(): Post { return new Post(); }
}
`,
	"src/Controller/FeedController.php": `<?php
namespace App\Controller;
use App\Entity\Post;
class FeedController {
    public function feed(Post $post): string { return $post->getTitle(); }
}
`,
}

// TestRepoMapRanksTheCentralEntityFirst: on an application whose reference
// graph is known, the entity everything uses is the map's first file and
// first class, the constraint used once ranks below the entities, and the
// detailed answer carries the ranking's inputs (in-degree, rank,
// personalisation) while the concise one is the map's text alone.
func TestRepoMapRanksTheCentralEntityFirst(t *testing.T) {
	root := t.TempDir()
	writeTree(t, root, rankFixture)
	s := treeService(t, root)
	env := call(t, s, "repo_map", `{"budget_tokens":2000}`)
	r := env.Result.(RepoMapResult)
	if len(r.Files) == 0 || r.Files[0].Path != "src/Entity/Post.php" {
		t.Fatalf("first file %v, want src/Entity/Post.php", paths(r.Files))
	}
	classes := map[string]MapSymbol{}
	var order []string
	for _, f := range r.Files {
		for _, sym := range f.Symbols {
			if sym.Kind == "class" {
				classes[sym.QName] = sym
				order = append(order, sym.QName)
			}
		}
	}
	post, tag, slug := classes[`App\Entity\Post`], classes[`App\Entity\Tag`], classes[`App\Validator\Slug`]
	if post.ID == "" || tag.ID == "" || slug.ID == "" {
		t.Fatalf("classes in the map: %v", order)
	}
	for qn, c := range classes {
		if qn != post.QName && c.Rank >= post.Rank {
			t.Errorf("%s ranks %.3f, not below Post's %.3f", qn, c.Rank, post.Rank)
		}
	}
	if !(post.Rank > tag.Rank && tag.Rank > slug.Rank) {
		t.Errorf("ranks Post %.3f, Tag %.3f, Slug %.3f: want that order", post.Rank, tag.Rank, slug.Rank)
	}
	// inputs: Post is named by more arcs than Tag, Tag than Slug; the
	// personalisation is uniform without focus
	if !(post.InDegree > tag.InDegree && tag.InDegree > slug.InDegree && slug.InDegree >= 1) {
		t.Errorf("in-degrees Post %d, Tag %d, Slug %d", post.InDegree, tag.InDegree, slug.InDegree)
	}
	if post.Personal <= 0 || post.Personal != slug.Personal {
		t.Errorf("personalisation without focus: Post %v, Slug %v", post.Personal, slug.Personal)
	}
	// with focus, the personalisation is the focused file's alone
	env = call(t, s, "repo_map", `{"budget_tokens":2000,"focus":["src/Validator/Slug.php"]}`)
	fr := env.Result.(RepoMapResult)
	if i := slices.Index(paths(fr.Files), "src/Validator/Slug.php"); i < 0 || i > 2 {
		t.Errorf("focused on Slug.php, files %v", paths(fr.Files))
	}
	for _, f := range fr.Files {
		for _, sym := range f.Symbols {
			if (f.Path == "src/Validator/Slug.php") != (sym.Personal > 0) {
				t.Errorf("focused map: %s personal %v", sym.QName, sym.Personal)
			}
		}
	}
	// concise: the text and its tokens, nothing else
	env = call(t, s, "repo_map", `{"budget_tokens":2000,"detail":"concise"}`)
	raw, err := json.Marshal(env.Result)
	must(t, err)
	var c map[string]any
	must(t, json.Unmarshal(raw, &c))
	if len(c) != 2 || c["text"] != r.Text || strings.Contains(string(raw), "in_degree") {
		t.Errorf("concise repo_map: %s", raw)
	}
}

func paths(fs []MapFile) []string {
	var out []string
	for _, f := range fs {
		out = append(out, f.Path)
	}
	return out
}
